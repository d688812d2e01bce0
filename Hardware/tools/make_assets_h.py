#!/usr/bin/env python3
"""Generates Hardware/tiltserial/assets.h (PROGMEM art for the sketch) from the
shared assets in Sources/Core/TiltAssets/Resources: the content tile (PBM P1/P4) in
SSD1306 page layout with its tile id, the ribbon (PGM P2/P5) as two page-layout
masks (drawn: alpha > 85, lit: alpha > 170), and the drawer's item icons (16 x 16
PBMs, in the order given) as lit and drawn (lit plus a 1-px halo) page-layout
masks, exactly as docs/display.md and the host's TiltDisplay module define them.

usage: make_assets_h.py TILE.pbm RIBBON.pgm OUT.h [ITEM.pbm ...]
Deterministic: the same inputs give the same bytes (make check diffs them).
"""
import sys

TRANSPARENT_MAX, EDGE_MAX = 85, 170


def tokens_and_raster(data, count):
    """The first `count` header numbers (comments skipped) and the offset after them."""
    values, i = [], 2
    while len(values) < count:
        while i < len(data) and (chr(data[i]).isspace() or data[i] == ord('#')):
            if data[i] == ord('#'):
                while i < len(data) and data[i] not in b'\r\n':
                    i += 1
            else:
                i += 1
        start = i
        while i < len(data) and chr(data[i]).isdigit():
            i += 1
        if start == i:
            sys.exit(f"make_assets_h: expected a number at byte {start}")
        values.append(int(data[start:i]))
    return values, i


def plain_samples(data, offset, count, single_digits):
    out, i = [], offset
    while len(out) < count:
        while i < len(data) and (chr(data[i]).isspace() or data[i] == ord('#')):
            if data[i] == ord('#'):
                while i < len(data) and data[i] not in b'\r\n':
                    i += 1
            else:
                i += 1
        if i >= len(data):
            sys.exit(f"make_assets_h: file ends after {len(out)} of {count} samples")
        if single_digits:
            out.append(data[i] - ord('0')); i += 1
        else:
            start = i
            while i < len(data) and chr(data[i]).isdigit():
                i += 1
            out.append(int(data[start:i]))
    return out


def read_pbm(path, tile=True):
    data = open(path, 'rb').read()
    magic = data[:2]
    (w, h), i = tokens_and_raster(data, 2)
    if magic == b'P1':
        bits = plain_samples(data, i, w * h, True)
    elif magic == b'P4':
        row = (w + 7) // 8
        raster = data[i + 1:]
        bits = [(raster[y * row + x // 8] >> (7 - x % 8)) & 1 for y in range(h) for x in range(w)]
    else:
        sys.exit(f"make_assets_h: {path}: not a PBM (P1/P4)")
    if tile and (w % 8 or h % 8 or w > 256 or h > 128):
        sys.exit(f"make_assets_h: {path}: tile is {w}x{h}; sizes must be multiples of 8, at most 256x128")
    return w, h, bits


ITEM_SIZE = 16


def read_item(path):
    """An item icon: 16 x 16, its border rows and columns empty (the halo stays inside)."""
    w, h, bits = read_pbm(path, tile=False)
    if (w, h) != (ITEM_SIZE, ITEM_SIZE):
        sys.exit(f"make_assets_h: {path}: item icons are {ITEM_SIZE}x{ITEM_SIZE}, this one is {w}x{h}")
    lit = lambda x, y: 0 <= x < w and 0 <= y < h and bits[y * w + x]
    if any(lit(x, y) for x in range(w) for y in range(h) if x in (0, w - 1) or y in (0, h - 1)):
        sys.exit(f"make_assets_h: {path}: keep the icon's 1-px border empty (room for its halo)")
    drawn = lambda x, y: any(lit(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return page_layout(w, h, lit), page_layout(w, h, drawn)


def read_pgm(path):
    data = open(path, 'rb').read()
    magic = data[:2]
    (w, h, maxval), i = tokens_and_raster(data, 3)
    if magic == b'P2':
        raw = plain_samples(data, i, w * h, False)
    elif magic == b'P5':
        raster = data[i + 1:]
        raw = list(raster[:w * h]) if maxval < 256 else [raster[2 * k] << 8 | raster[2 * k + 1] for k in range(w * h)]
    else:
        sys.exit(f"make_assets_h: {path}: not a PGM (P2/P5)")
    if w > 128 or h > 128:
        sys.exit(f"make_assets_h: {path}: ribbon is {w}x{h}; at most 128x128")
    return w, h, [(v * 255 + maxval // 2) // maxval for v in raw]


def page_layout(w, h, is_set):
    pages = (h + 7) // 8
    out = [0] * (pages * w)
    for y in range(h):
        for x in range(w):
            if is_set(x, y):
                out[(y >> 3) * w + x] |= 1 << (y & 7)
    return out


def crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def c_array(name, data, per_line=16):
    lines = [f"static const uint8_t {name}[{len(data)}] PROGMEM = {{"]
    for i in range(0, len(data), per_line):
        lines.append("    " + ", ".join(f"0x{b:02X}" for b in data[i:i + per_line]) + ",")
    lines.append("};")
    return "\n".join(lines)


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: make_assets_h.py TILE.pbm RIBBON.pgm OUT.h [ITEM.pbm ...]")
    tw, th, bits = read_pbm(sys.argv[1])
    rw, rh, alpha = read_pgm(sys.argv[2])
    tile = page_layout(tw, th, lambda x, y: bits[y * tw + x])
    drawn = page_layout(rw, rh, lambda x, y: alpha[y * rw + x] > TRANSPARENT_MAX)
    lit = page_layout(rw, rh, lambda x, y: alpha[y * rw + x] > EDGE_MAX)
    items = [read_item(p) for p in sys.argv[4:]]
    items_lit = [b for item in items for b in item[0]]
    items_drawn = [b for item in items for b in item[1]]
    names = ", ".join(p.rsplit("/", 1)[-1] for p in sys.argv[4:])
    text = f"""/* Generated by Hardware/tools/make_assets_h.py from Sources/Core/TiltAssets/Resources
 * (map-tile.pbm, ribbon.pgm{", " if items else ""}{names}). Do not edit: run `make -C Hardware assets`.
 * `make -C Hardware check` fails when this file is stale. Layouts: docs/display.md. */
#ifndef TILTSERIAL_ASSETS_H
#define TILTSERIAL_ASSETS_H

#include <stdint.h>
#include <avr/pgmspace.h>

#define TILE_WIDTH {tw}u
#define TILE_HEIGHT {th}u
/* CRC-16/CCITT-FALSE of asset_tile: the tile id sent in HELLO. */
#define TILE_ID 0x{crc16(tile):04X}u

#define RIBBON_WIDTH {rw}u
#define RIBBON_HEIGHT {rh}u
/* Alpha limits the masks were cut with: > {EDGE_MAX} lit, {TRANSPARENT_MAX + 1}..{EDGE_MAX} dark edge, <= {TRANSPARENT_MAX} transparent. */
#define RIBBON_TRANSPARENT_MAX {TRANSPARENT_MAX}u
#define RIBBON_EDGE_MAX {EDGE_MAX}u

/* Content tile, SSD1306 page layout: {th // 8} pages x {tw} columns, LSB = top row. */
{c_array("asset_tile", tile)}

/* Ribbon pixels the art draws (alpha > {TRANSPARENT_MAX}), page layout, {(rh + 7) // 8} pages x {rw}. */
{c_array("asset_ribbon_drawn", drawn, rw)}

/* Ribbon pixels drawn lit (alpha > {EDGE_MAX}); drawn but not lit = dark edge. */
{c_array("asset_ribbon_lit", lit, rw)}

#define ITEM_COUNT {len(items)}u
#define ITEM_SIZE {ITEM_SIZE}u

/* Drawer item icons, one after another, each 2 pages x {ITEM_SIZE} columns: lit pixels. */
{c_array("asset_items_lit", items_lit or [0], ITEM_SIZE)}

/* The same, drawn: lit plus a 1-px halo (drawn but not lit = dark, so an icon stands out from the map). */
{c_array("asset_items_drawn", items_drawn or [0], ITEM_SIZE)}

#endif
"""
    with open(sys.argv[3], 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
