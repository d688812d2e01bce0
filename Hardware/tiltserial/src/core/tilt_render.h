/* The frame of docs/display.md, rendered a span of one SSD1306 page at a time so
 * the board needs no 1 KB framebuffer. Same algorithm as the host's
 * TiltDisplay.FrameRenderer; a Swift test compares the two pixel for pixel. */
#ifndef TILT_RENDER_H
#define TILT_RENDER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILT_DISPLAY_WIDTH 128u
#define TILT_DISPLAY_HEIGHT 64u
#define TILT_DISPLAY_PAGES 8u

/** Reads one byte of art: pgm_read_byte on the board, a plain load on a host. */
typedef uint8_t (*tilt_read_fn)(const uint8_t *address);

/** A plain memory read, for art in RAM. */
uint8_t tilt_read_ram(const uint8_t *address);

/** The art, all in SSD1306 page layout (byte [page × width + x], LSB = top row). */
typedef struct {
    const uint8_t *tile;         /* tile_height / 8 pages × tile_width bytes */
    uint16_t tile_width;         /* multiple of 8, 8..256 */
    uint16_t tile_height;        /* multiple of 8, 8..128 */
    const uint8_t *ribbon_drawn; /* ceil(ribbon_height / 8) pages × ribbon_width: alpha > 85 */
    const uint8_t *ribbon_lit;   /* same layout: alpha > 170; padding rows are 0 */
    uint8_t ribbon_width;        /* 1..128 */
    uint8_t ribbon_height;       /* 1..128 */
    tilt_read_fn read;
} tilt_art;

/** The OFFSETS fields that place the content and the ribbon, in content pixels. */
typedef struct {
    uint16_t viewport_x, viewport_y, ribbon_x, ribbon_bottom;
} tilt_view;

/** Renders `count` columns of display page `page` (0..7) starting at column
 *  `first` into `out[0..count)`. first + count must be at most 128. */
void tilt_render_span(const tilt_art *art, const tilt_view *view, uint8_t page,
                      uint8_t first, uint8_t count, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
