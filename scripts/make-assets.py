#!/usr/bin/env python3
"""Draws the shipped assets: a seamless map-like tile (PBM) and the ribbon art (PGM).

Run once by hand when the art should change; the outputs are committed in
Sources/TiltAssets/Resources and are the single source for host and firmware.
Deterministic: the same script writes the same bytes.
"""
import math, os, sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Sources", "TiltAssets", "Resources")
W, H = 256, 128

def height(x, y):
    # Integer frequencies over the tile period make the tile wrap seamlessly.
    u, v = 2 * math.pi * x / W, 2 * math.pi * y / H
    return (math.sin(u + 0.3) * math.cos(v * 1 - 0.7)
            + 0.6 * math.sin(2 * u - 1.1 + math.sin(v)) * math.sin(2 * v + 0.4)
            + 0.35 * math.cos(3 * u + 2 * v + 0.9)
            + 0.25 * math.sin(5 * u - 3 * v + 2.1)
            + 0.15 * math.cos(7 * u + 5 * v))

land = [[height(x, y) > 0.35 for x in range(W)] for y in range(H)]
ink = [[False] * W for _ in range(H)]
for y in range(H):
    for x in range(W):
        here = land[y][x]
        coast = here and any(not land[(y + dy) % H][(x + dx) % W] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        if coast:
            ink[y][x] = True
        elif here:
            ink[y][x] = (x % 4 == 0 and y % 4 == 0) or (x % 4 == 2 and y % 4 == 2)  # stipple
        else:
            ink[y][x] = (x % 32 == 0 and y % 2 == 0) or (y % 32 == 0 and x % 2 == 0)  # graticule
# Cities: small rings on land, at fixed places.
for cx, cy in ((40, 20), (90, 70), (150, 30), (210, 100), (30, 110), (180, 60), (120, 110)):
    if land[cy][cx]:
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                ink[(cy + dy) % H][(cx + dx) % W] = max(abs(dx), abs(dy)) == 2 or (dx == 0 and dy == 0)

with open(os.path.join(out, "map-tile.pbm"), "w") as f:
    f.write("P1\n# tiltserial content tile: lit OLED pixel = 1. Made by scripts/make-assets.py\n")
    f.write(f"{W} {H}\n")
    for row in ink:
        bits = "".join("1" if b else "0" for b in row)
        for i in range(0, W, 64):
            f.write(bits[i:i + 64] + "\n")

# Ribbon: 12 x 36 alpha mask, edge 128, body 255, dark stripes every 6 rows, V notch at the bottom.
RW, RH = 12, 36
alpha = [[0] * RW for _ in range(RH)]
for y in range(RH):
    for x in range(RW):
        edge = x in (0, RW - 1)
        alpha[y][x] = 128 if edge or (y % 6 == 5) else 255
notch = 6
for k in range(notch):            # k = 0 is the bottom row; the notch narrows upward
    y = RH - 1 - k
    half = notch - k               # half-width of the cut at this row
    for x in range(RW // 2 - half, RW // 2 + half):
        alpha[y][x] = 0
    for x in (RW // 2 - half - 1, RW // 2 + half):
        if 0 <= x < RW and alpha[y][x] != 0:
            alpha[y][x] = 128
with open(os.path.join(out, "ribbon.pgm"), "w") as f:
    f.write("P2\n# tiltserial ribbon art: 8-bit alpha, notch at the bottom. Made by scripts/make-assets.py\n")
    f.write(f"{RW} {RH}\n255\n")
    for row in alpha:
        f.write(" ".join(str(a) for a in row) + "\n")
