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

    /* Art row at the page's top bit; the ribbon touches this page only if in (-8, height). */
    const int32_t ribbon_row = (int32_t)top - view->ribbon_bottom + art->ribbon_height;
    const uint8_t ribbon_on_page = ribbon_row < art->ribbon_height && ribbon_row > -8;
    int32_t art_x = (int32_t)view->viewport_x + first - view->ribbon_x;

    uint16_t tx = (uint16_t)(((uint32_t)view->viewport_x + first) % tw);
    for (uint8_t i = 0; i < count; i++) {
        uint8_t byte = art->read(row0 + tx);
        if (shift != 0) {
            byte = (uint8_t)((byte >> shift) | (art->read(row1 + tx) << (uint8_t)(8u - shift)));
        }
        if (ribbon_on_page && art_x >= 0 && art_x < art->ribbon_width) {
            uint8_t drawn = column_bits(art, art->ribbon_drawn, (uint8_t)art_x, (int16_t)ribbon_row);
            uint8_t lit = column_bits(art, art->ribbon_lit, (uint8_t)art_x, (int16_t)ribbon_row);
            byte = (uint8_t)((byte & (uint8_t)~drawn) | lit);
        }
        out[i] = byte;
        art_x++;
        if (++tx == tw) tx = 0;
    }
}
