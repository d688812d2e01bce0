#include "tilt_render.h"

uint8_t tilt_read_ram(const uint8_t *address) { return *address; }

/* Eight bits of one art column from art row `row` (> -8, < height): bit k is
 * row row + k; rows outside the art read as zero (the padding is zero). */
static uint8_t column_bits(const tilt_art *art, const uint8_t *pages, uint8_t x, int16_t row) {
    uint8_t w = art->ribbon_width;
    if (row < 0) return (uint8_t)(art->read(pages + x) << (uint8_t)(-row));
    uint8_t page = (uint8_t)(row >> 3), shift = (uint8_t)(row & 7);
    uint8_t bits = (uint8_t)(art->read(pages + (uint16_t)page * w + x) >> shift);
    if (shift != 0 && page + 1u < (art->ribbon_height + 7u) / 8u) {
        bits |= (uint8_t)(art->read(pages + (uint16_t)(page + 1u) * w + x) << (uint8_t)(8u - shift));
    }
    return bits;
}

void tilt_render_span(const tilt_art *art, const tilt_view *view, uint8_t page,
                      uint8_t first, uint8_t count, uint8_t *out) {
    const uint16_t tw = art->tile_width;
    const uint32_t top = (uint32_t)view->viewport_y + 8u * page; /* content row of bit 0 */
    const uint16_t tile_row = (uint16_t)(top % art->tile_height);
    const uint8_t tile_page = (uint8_t)(tile_row >> 3), shift = (uint8_t)(tile_row & 7);
    const uint8_t next_page = (uint8_t)((tile_page + 1u) * 8u == art->tile_height ? 0 : tile_page + 1u);
    const uint8_t *row0 = art->tile + (uint16_t)tile_page * tw;
    const uint8_t *row1 = art->tile + (uint16_t)next_page * tw;
    /* Unaligned rows join two tile bytes: lo >> shift | hi << (8 - shift). The AVR
     * shifts one bit per instruction, so both shifts are done as one 8x8 multiply
     * by 2^(8 - shift) each: lo >> s is the high byte of lo * m, hi << (8 - s) the low byte. */
    const uint8_t m = (uint8_t)(1u << (8u - shift)); /* unused when shift == 0 */

    /* Art row at the page's top bit; the ribbon touches this page only if in (-8, height). */
    const int32_t ribbon_row = (int32_t)top - view->ribbon_bottom + art->ribbon_height;
    /* The span columns [r0, r1) the art covers, worked out once in 32 bits so the
     * loop compares bytes; span column i shows art column i - left. */
    const int32_t left = (int32_t)view->ribbon_x - view->viewport_x - first;
    uint8_t r0 = 0, r1 = 0;
    if (ribbon_row < art->ribbon_height && ribbon_row > -8 && left < count && left + art->ribbon_width > 0) {
        r0 = left < 0 ? 0 : (uint8_t)left;
        r1 = left + art->ribbon_width > count ? count : (uint8_t)(left + art->ribbon_width);
    }

    uint16_t tx = (uint16_t)(((uint32_t)view->viewport_x + first) % tw);
    for (uint8_t i = 0; i < count; i++) {
        uint8_t byte = art->read(row0 + tx);
        if (shift != 0) {
            byte = (uint8_t)(((uint16_t)byte * m) >> 8) | (uint8_t)((uint16_t)art->read(row1 + tx) * m);
        }
        if (i >= r0 && i < r1) {
            uint8_t x = (uint8_t)((int16_t)i - (int16_t)left);
            uint8_t drawn = column_bits(art, art->ribbon_drawn, x, (int16_t)ribbon_row);
            uint8_t lit = column_bits(art, art->ribbon_lit, x, (int16_t)ribbon_row);
            byte = (uint8_t)((byte & (uint8_t)~drawn) | lit);
        }
        out[i] = byte;
        if (++tx == tw) tx = 0;
    }
}
