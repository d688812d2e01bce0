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

/* Eight bits of column x of icon `item` from icon row `row`: bit k is row row + k;
 * rows outside the icon read as zero. */
static uint8_t icon_bits(const tilt_art *art, const uint8_t *icons, uint8_t item, uint8_t x, int32_t row) {
    if (row <= -8 || row >= TILT_ITEM_SIZE) return 0;
    const uint8_t *icon = icons + (uint16_t)item * (2u * TILT_ITEM_SIZE);
    if (row < 0) return (uint8_t)(art->read(icon + x) << (uint8_t)(-row));
    uint8_t page = (uint8_t)(row >> 3), shift = (uint8_t)(row & 7);
    uint8_t bits = (uint8_t)(art->read(icon + (uint16_t)page * TILT_ITEM_SIZE + x) >> shift);
    if (shift != 0 && page == 0) bits |= (uint8_t)(art->read(icon + TILT_ITEM_SIZE + x) << (uint8_t)(8u - shift));
    return bits;
}

/* Draws icon `item` with its halo over out[], its column 0 at span column `left`
 * and its row `row` at the page's top bit. */
static void overlay_icon(const tilt_art *art, uint8_t item, int32_t left, int32_t row, uint8_t count, uint8_t *out) {
    if (item >= art->item_count || row <= -8 || row >= TILT_ITEM_SIZE) return;
    if (left >= count || left + TILT_ITEM_SIZE <= 0) return;
    uint8_t i0 = left < 0 ? 0 : (uint8_t)left;
    uint8_t i1 = left + TILT_ITEM_SIZE > count ? count : (uint8_t)(left + TILT_ITEM_SIZE);
    for (uint8_t i = i0; i < i1; i++) {
        uint8_t x = (uint8_t)(i - left);
        uint8_t drawn = icon_bits(art, art->items_drawn, item, x, row);
        uint8_t lit = icon_bits(art, art->items_lit, item, x, row);
        out[i] = (uint8_t)((out[i] & (uint8_t)~drawn) | lit);
    }
}

/* The drawer's rows of this page over out[]: background dark, the icons, the
 * current item's marker, the bottom border (docs/display.md). */
static void overlay_drawer(const tilt_art *art, const tilt_scene *scene, uint8_t page, uint8_t first, uint8_t count, uint8_t *out) {
    uint8_t shown = scene->shown < scene->height ? scene->shown : scene->height;
    int16_t y0 = (int16_t)(8 * page);
    if (shown <= y0) return;
    uint8_t mask = shown >= y0 + 8 ? 0xFF : (uint8_t)((1u << (shown - y0)) - 1u);
    int16_t icon_row = (int16_t)(y0 - (shown - TILT_ICON_BOTTOM_GAP - TILT_ITEM_SIZE));
    int16_t border = (int16_t)(shown - 1 - y0), marker = (int16_t)(shown - TILT_MARKER_ROW - y0);
    uint8_t border_bit = border >= 0 && border < 8 ? (uint8_t)(1u << border) : 0;
    uint8_t marker_bit = marker >= 0 && marker < 8 ? (uint8_t)(1u << marker) : 0;
    /* Row pixel of span column 0, walked as slot k and offset o (one division per span). */
    int32_t rowx = (int32_t)scene->scroll + first;
    uint16_t k = 0;
    uint8_t o = 0;
    if (rowx >= 0) {
        k = (uint16_t)(rowx / TILT_SLOT_PITCH);
        o = (uint8_t)(rowx % TILT_SLOT_PITCH);
    }
    for (uint8_t i = 0; i < count; i++, rowx++) {
        uint8_t bits = border_bit;
        if (rowx >= 0) {
            if (k < art->item_count && o >= TILT_ICON_INSET && o < TILT_ICON_INSET + TILT_ITEM_SIZE) {
                bits |= icon_bits(art, art->items_lit, (uint8_t)k, (uint8_t)(o - TILT_ICON_INSET), icon_row);
                if (k == scene->current) bits |= marker_bit;
            }
            if (++o == TILT_SLOT_PITCH) {
                o = 0;
                k++;
            }
        }
        out[i] = (uint8_t)((out[i] & (uint8_t)~mask) | (bits & mask));
    }
}

void tilt_render_span(const tilt_art *art, const tilt_view *view, uint8_t page,
                      uint8_t first, uint8_t count, uint8_t *out) {
    tilt_render_scene_span(art, view, 0, page, first, count, out);
}

void tilt_render_scene_span(const tilt_art *art, const tilt_view *view, const tilt_scene *scene,
                            uint8_t page, uint8_t first, uint8_t count, uint8_t *out) {
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

    /* The map. */
    uint16_t tx = (uint16_t)(((uint32_t)view->viewport_x + first) % tw);
    for (uint8_t i = 0; i < count; i++) {
        uint8_t byte = art->read(row0 + tx);
        if (shift != 0) {
            byte = (uint8_t)(((uint16_t)byte * m) >> 8) | (uint8_t)((uint16_t)art->read(row1 + tx) * m);
        }
        out[i] = byte;
        if (++tx == tw) tx = 0;
    }

    /* The pins, in slot order. */
    if (scene) {
        uint8_t n = scene->pin_count < TILT_PIN_SLOTS ? scene->pin_count : TILT_PIN_SLOTS;
        for (uint8_t s = 0; s < n; s++) {
            const tilt_pin *pin = &scene->pins[s];
            overlay_icon(art, pin->item, (int32_t)pin->x - TILT_PIN_ANCHOR - view->viewport_x - first,
                         (int32_t)top - ((int32_t)pin->y - TILT_PIN_ANCHOR), count, out);
        }
    }

    /* The ribbon. Art row at the page's top bit; it touches this page only if in
     * (-8, height). The span columns [r0, r1) it covers are worked out once in 32
     * bits; span column i shows art column i - left. */
    const int32_t ribbon_row = (int32_t)top - view->ribbon_bottom + art->ribbon_height;
    const int32_t left = (int32_t)view->ribbon_x - view->viewport_x - first;
    if (ribbon_row < art->ribbon_height && ribbon_row > -8 && left < count && left + art->ribbon_width > 0) {
        uint8_t r0 = left < 0 ? 0 : (uint8_t)left;
        uint8_t r1 = left + art->ribbon_width > count ? count : (uint8_t)(left + art->ribbon_width);
        for (uint8_t i = r0; i < r1; i++) {
            uint8_t x = (uint8_t)((int16_t)i - (int16_t)left);
            uint8_t drawn = column_bits(art, art->ribbon_drawn, x, (int16_t)ribbon_row);
            uint8_t lit = column_bits(art, art->ribbon_lit, x, (int16_t)ribbon_row);
            out[i] = (uint8_t)((out[i] & (uint8_t)~drawn) | lit);
        }
    }

    if (!scene) return;
    /* The drawer, then the dragged item on top of everything. */
    overlay_drawer(art, scene, page, first, count, out);
    if (scene->drag_item != TILT_ITEM_NONE) {
        overlay_icon(art, scene->drag_item, (int32_t)scene->drag_left - first,
                     (int32_t)(8 * page) - scene->drag_top, count, out);
    }
}
