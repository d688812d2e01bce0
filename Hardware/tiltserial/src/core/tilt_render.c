#include "tilt_render.h"

/* On the AVR the art is in flash: read it with LPM inline (an indirect call per
 * byte cost more than the rest of the renderer's work on it); elsewhere (host
 * tests) through the art's read function. */
#if defined(__AVR__)
#include <avr/pgmspace.h>
#define ART_READ(art, address) ((void)(art), pgm_read_byte(address))
#else
#define ART_READ(art, address) ((art)->read(address))
#endif

uint8_t tilt_read_ram(const uint8_t *address) { return *address; }

/* Eight bits of one art column from art row `row` (> -8, < height): bit k is
 * row row + k; rows outside the art read as zero (the padding is zero). */
static uint8_t column_bits(const tilt_art *art, const uint8_t *pages, uint8_t x, int16_t row) {
    uint8_t w = art->ribbon_width;
    if (row < 0) return (uint8_t)(ART_READ(art, pages + x) << (uint8_t)(-row));
    uint8_t page = (uint8_t)(row >> 3), shift = (uint8_t)(row & 7);
    uint8_t bits = (uint8_t)(ART_READ(art, pages + (uint16_t)page * w + x) >> shift);
    if (shift != 0 && page + 1u < (art->ribbon_height + 7u) / 8u) {
        bits |= (uint8_t)(ART_READ(art, pages + (uint16_t)(page + 1u) * w + x) << (uint8_t)(8u - shift));
    }
    return bits;
}

/* Where an icon's 8 rows starting at icon row `row` (-8 < row < 16) lie in its
 * 2 page bytes per column, worked out once per page so each column costs two
 * reads and two 8x8 multiplies (the AVR shifts one bit per instruction):
 * bits = lo * m >> 8 | (uint8_t)(hi * m), or just lo when page-aligned. */
typedef struct {
    int8_t lo, hi;   /* page offsets (0 or ITEM_SIZE) of the two bytes; -1: none */
    uint8_t m;       /* 2^(8 - shift); for a row above the icon, 2^-row with hi = page 0 */
    uint8_t aligned; /* row is 0 or 8: the byte as it is */
} icon_slice;

static icon_slice slice_of(int8_t row) {
    icon_slice s = {-1, -1, 1, 0};
    if (row < 0) {
        s.hi = 0;
        s.m = (uint8_t)(1u << (uint8_t)(-row));
    } else {
        uint8_t page = (uint8_t)(row >> 3), shift = (uint8_t)(row & 7);
        s.lo = (int8_t)(page * TILT_ITEM_SIZE);
        if (shift == 0) {
            s.aligned = 1;
        } else {
            s.m = (uint8_t)(1u << (8u - shift));
            if (page == 0) s.hi = TILT_ITEM_SIZE;
        }
    }
    return s;
}

/* The eight bits of one icon column (`column` points at its page-0 byte). */
static uint8_t slice_bits(const tilt_art *art, const uint8_t *column, const icon_slice *s) {
    if (s->aligned) return ART_READ(art, column + s->lo);
    uint8_t bits = 0;
    if (s->lo >= 0) bits = (uint8_t)(((uint16_t)ART_READ(art, column + s->lo) * s->m) >> 8);
    if (s->hi >= 0) bits |= (uint8_t)((uint16_t)ART_READ(art, column + s->hi) * s->m);
    return bits;
}

/* Draws icon `item` with its halo over out[], its column 0 at span column `left`
 * and its row `row` at the page's top bit. */
static void overlay_icon(const tilt_art *art, uint8_t item, int32_t left, int32_t row, uint8_t count, uint8_t *out) {
    if (item >= art->item_count || row <= -8 || row >= TILT_ITEM_SIZE) return;
    if (left >= count || left + TILT_ITEM_SIZE <= 0) return;
    const icon_slice s = slice_of((int8_t)row);
    uint8_t i0 = left < 0 ? 0 : (uint8_t)left;
    uint8_t i1 = left + TILT_ITEM_SIZE > count ? count : (uint8_t)(left + TILT_ITEM_SIZE);
    const uint16_t base = (uint16_t)item * (2u * TILT_ITEM_SIZE);
    const uint8_t *drawn = art->items_drawn + base + (uint8_t)(i0 - left);
    const uint8_t *lit = art->items_lit + base + (uint8_t)(i0 - left);
    for (uint8_t i = i0; i < i1; i++, drawn++, lit++) {
        out[i] = (uint8_t)((out[i] & (uint8_t)~slice_bits(art, drawn, &s)) | slice_bits(art, lit, &s));
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
    uint8_t icons = icon_row > -8 && icon_row < TILT_ITEM_SIZE;
    const icon_slice s = slice_of(icons ? (int8_t)icon_row : 0);
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
                if (icons) bits |= slice_bits(art, art->items_lit + k * (2u * TILT_ITEM_SIZE) + (o - TILT_ICON_INSET), &s);
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

/* a >> s | b << (8 - s) with m = 2^(8 - s): the high byte of a * m and the
 * low byte of b * m. On the AVR two MULs (avr-gcc widens m to 16 bits and
 * multiplies three times). */
static inline uint8_t join_rows(uint8_t a, uint8_t b, uint8_t m) {
#if defined(__AVR__)
    uint8_t joined;
    __asm__("mul %1, %3\n\t"
            "mov %0, r1\n\t"
            "mul %2, %3\n\t"
            "or %0, r0\n\t"
            "clr r1"
            : "=&r"(joined)
            : "r"(a), "r"(b), "r"(m)
            : "r0");
    return joined;
#else
    return (uint8_t)((uint8_t)(((uint16_t)a * m) >> 8) | (uint8_t)((uint16_t)b * m));
#endif
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

    /* The map, in runs up to the tile's right edge: walking pointers, no
     * index or wrap test per byte (half the map's time on the AVR, which
     * now draws every frame twice to send only what changed). */
    uint16_t tx = (uint16_t)(((uint32_t)view->viewport_x + first) % tw);
    uint8_t *o = out;
    for (uint8_t left = count; left > 0;) {
        uint16_t to_edge = (uint16_t)(tw - tx);
        uint8_t run = to_edge < left ? (uint8_t)to_edge : left;
        const uint8_t *lo = row0 + tx, *hi = row1 + tx;
        left = (uint8_t)(left - run);
        tx = (uint16_t)(tx + run);
        if (tx == tw) tx = 0;
        if (shift == 0) {
            for (; run > 0; run--) *o++ = ART_READ(art, lo++);
        } else {
            for (; run > 0; run--) {
                uint8_t a = ART_READ(art, lo++), b = ART_READ(art, hi++);
                *o++ = join_rows(a, b, m);
            }
        }
    }

    /* The pins, in slot order. */
    if (scene) {
        uint8_t n = scene->pin_count < TILT_PIN_SLOTS ? scene->pin_count : TILT_PIN_SLOTS;
        /* A 16-bit test first (the pin's rows and columns near this span, modulo
         * 2^16); overlay_icon then checks exactly in 32 bits. */
        /* row = top + 8 - y in (-8, 16): row + 7 = top + 15 - y in [0, 22];
         * left = x - 8 - vx - first in (-16, count): left + 15 = x - (vx + first - 7) in [0, count + 14]. */
        const uint16_t top16 = (uint16_t)(top + TILT_PIN_ANCHOR + 7u);
        const uint16_t left16 = (uint16_t)(view->viewport_x + first + TILT_PIN_ANCHOR - 15);
        for (uint8_t s = 0; s < n; s++) {
            const tilt_pin *pin = &scene->pins[s];
            if ((uint16_t)(top16 - pin->y) > TILT_ITEM_SIZE + 6u) continue;
            if ((uint16_t)(pin->x - left16) > (uint16_t)(count + TILT_ITEM_SIZE - 2u)) continue;
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
