/* The frame of docs/display.md, rendered a span of one SSD1306 page at a time so
 * the board needs no 1 KB framebuffer: the map, the pins, the ribbon, the drawer
 * and the dragged item. Same result as the host's TiltDisplay.ScreenRenderer; a
 * Swift test compares the two pixel for pixel. */
#ifndef TILT_RENDER_H
#define TILT_RENDER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILT_DISPLAY_WIDTH 128u
#define TILT_DISPLAY_HEIGHT 64u
#define TILT_DISPLAY_PAGES 8u

/** Reads one byte of art: a plain load on a host (tilt_read_ram). On the AVR the
 *  art is always in flash and the renderer reads it with LPM inline instead
 *  (an indirect call per byte cost a quarter of the frame); give pgm_read_byte
 *  there all the same. */
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
    const uint8_t *items_lit;    /* item_count icons, each 2 pages × 16 columns: lit pixels */
    const uint8_t *items_drawn;  /* same layout: lit plus a 1-px halo */
    uint8_t item_count;          /* 0..254 */
} tilt_art;

/* Drawer layout (docs/display.md, "The drawer"). */
#define TILT_ITEM_SIZE 16
#define TILT_SLOT_PITCH 20
#define TILT_ICON_INSET 2
#define TILT_ICON_BOTTOM_GAP 4 /* icons end this many rows above the drawer's bottom edge */
#define TILT_MARKER_ROW 3      /* the current item's marker: this many rows above it */
#define TILT_PIN_ANCHOR 8      /* a pin's icon is centred on its position */
#define TILT_PIN_SLOTS 32u
#define TILT_ITEM_NONE 0xFFu

/** One pin slot: an item at a content position (the icon's centre). */
typedef struct {
    uint8_t item;
    uint16_t x, y;
} tilt_pin;

/** The drawer, the dragged item and the pins (the DRAWER fields and the pin table). */
typedef struct {
    uint8_t height, shown;       /* shown > height counts as height; 0 = closed */
    int16_t scroll;              /* drawer row pixel at the display's left edge */
    uint8_t current, drag_item;  /* TILT_ITEM_NONE: none */
    int16_t drag_left, drag_top; /* display pixels */
    uint8_t pin_count;           /* slots 0..pin_count-1 are drawn (at most 32) */
    const tilt_pin *pins;        /* TILT_PIN_SLOTS slots, in RAM */
} tilt_scene;

/** The OFFSETS fields that place the content and the ribbon, in content pixels. */
typedef struct {
    uint16_t viewport_x, viewport_y, ribbon_x, ribbon_bottom;
} tilt_view;

/** Renders `count` columns of display page `page` (0..7) starting at column
 *  `first` into `out[0..count)`: the map and the ribbon, no drawer, no pins.
 *  first + count must be at most 128. */
void tilt_render_span(const tilt_art *art, const tilt_view *view, uint8_t page,
                      uint8_t first, uint8_t count, uint8_t *out);

/** The same with the drawer scene (NULL: none): map, pins, ribbon, drawer,
 *  dragged item, each drawn over the one before. */
void tilt_render_scene_span(const tilt_art *art, const tilt_view *view, const tilt_scene *scene,
                            uint8_t page, uint8_t first, uint8_t count, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
