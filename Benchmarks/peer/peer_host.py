#!/usr/bin/env python3
"""A Python host for the tiltserial board, the way a maker would write one.

This is the "peer" that Benchmarks/peer/compare measures tiltserial against
(docs/perf/peer.md). It speaks the same wire protocol (docs/protocol.md) and
runs the tilt scroller's Recipe 1-5 in recipe mode (docs/physics.md):

    peer_host.py PORT              # live: read SAMPLEs, write OFFSETS, JSON per tick
    peer_host.py replay FILE.csv   # offline: t_us,ax,ay,az[,gx,gy,gz]
    peer_host.py selftest          # CRC check value and the protocol's examples

What it does NOT do (tiltserial does): the ribbon (Recipe 2-8; OFFSETS carry
the ribbon at rest), smooth mode, the 1000-tick catch-up limit after a long
gap, recovering a frame from a damaged run, gap detection from board time,
reconnecting after an unplug, the text formats (i2cdevlib, MotionCal).

Float32: Recipe 1-5 computes in C floats. With numpy the integrator uses
numpy.float32 scalars; without it, every result is rounded to float32 with
struct (exact for +, -, * of float32 operands, since a double holds the exact
product or sum before the one rounding); PEER_HOST_NO_NUMPY=1 forces that. Either way the offsets match
tiltserial's recipe mode bit for bit; the JSON differs only in how x and y
are printed: tiltserial rounds the offset to Q15.16 first, then to 6
decimals, this script rounds the float to 6 decimals (|difference| < 8e-6).
"""

import binascii
import csv
import json
import math
import os
import signal
import struct
import sys
import time

numpy = None
if not os.environ.get("PEER_HOST_NO_NUMPY"):  # set it to try the struct rounding
    try:
        import numpy
    except ImportError:
        pass

# Frame types (docs/protocol.md).
HELLO = 0x01
SAMPLE = 0x02
PONG = 0x03
OFFSETS = 0x10
HOST_HELLO = 0x11
BODY_LENGTHS = {HELLO: 13, SAMPLE: 18, PONG: 4}

# Geometry of the shipped content: 512 x 256 content, 128 x 64 display.
TRAVEL_X = 512 - 128
TRAVEL_Y = 256 - 64
RIBBON_X = 250  # ribbon art's left column at rest (docs/physics.md)
RIBBON_BOTTOM = 15  # rows showing at rest

TICK_US = 30000  # the recipe's 0.03 s timer, on board time
COUNTS_PER_G = 16384  # +-2 g


# ---------------------------------------------------------------- float32

if numpy is not None:
    f32 = numpy.float32
else:
    def f32(value):
        """Round a Python float (a double) to the nearest float32."""
        return struct.unpack("<f", struct.pack("<f", value))[0]


ZERO = f32(0.0)
ONE = f32(1.0)
HALF = f32(0.5)
TWO = f32(2.0)
STEP = f32(0.005)  # "to increase viscosity lower the additive value"


def sign(n):
    """The recipe's SIGN(n): (n < 0) ? -1 : 1, so SIGN(0) is +1."""
    return f32(-1.0) if n < 0 else ONE


def c_abs(value):
    """C's integer abs() called with a float: truncates to an int first."""
    return f32(abs(int(value)))


class Recipe:
    """Recipe 1-5's tilt integrator, C semantics, float32 throughout."""

    def __init__(self):
        self.xoff = ZERO
        self.yoff = ZERO
        self.xaccel = ZERO
        self.yaccel = ZERO
        self.xvelocity = ZERO
        self.yvelocity = ZERO

    def sample(self, ax, az):
        """One accelerometer reading, g, iOS convention (face-up az = -1)."""
        xx = f32(-ax)
        yy = f32(f32(az + HALF) * TWO)
        accel_dir_x = f32(sign(self.xvelocity) * -1)
        new_dir_x = sign(xx)
        accel_dir_y = f32(sign(self.yvelocity) * -1)
        new_dir_y = sign(yy)
        if accel_dir_x == new_dir_x:
            self.xaccel = f32(f32(c_abs(self.xaccel) + STEP) * sign(self.xaccel))
        if accel_dir_y == new_dir_y:
            self.yaccel = f32(f32(c_abs(self.yaccel) + STEP) * sign(self.yaccel))
        self.xvelocity = f32(-self.xaccel * xx)
        self.yvelocity = f32(-self.yaccel * yy)

    def tick(self):
        """The 30 ms timer: off += velocity, clamped with C's MIN/MAX macros."""
        self.xoff = f32(self.xoff + self.xvelocity)
        self.xoff = self.xoff if self.xoff < 1 else ONE
        self.xoff = self.xoff if self.xoff > 0 else ZERO
        self.yoff = f32(self.yoff + self.yvelocity)
        self.yoff = self.yoff if self.yoff < 1 else ONE
        self.yoff = self.yoff if self.yoff > 0 else ZERO


def pixel(offset, travel):
    """offset * travel in double, rounded half away from zero (offset >= 0)."""
    return int(math.floor(float(offset) * travel + 0.5))


class Scroller:
    """Board-time ticks around the integrator: ticks at t0 + k * 30 ms, k >= 1.

    The tick at T runs after every sample stamped <= T: ticks before a
    sample's time run before it, a tick at exactly its time right after it.
    """

    def __init__(self, on_tick):
        self.recipe = Recipe()
        self.on_tick = on_tick
        self.next_tick = None
        self.last_time = 0
        self.ticks = 0

    def add_sample(self, t_us, ax_raw, az_raw):
        if self.next_tick is None:
            self.next_tick = t_us + TICK_US
        t_us = max(t_us, self.last_time)  # never backwards
        self.last_time = t_us
        while self.next_tick < t_us:
            self.run_tick()
        # The sensor reads the reaction to gravity (+1 g face-up); iOS, and the
        # recipe, read gravity itself (-1 g face-up). k / 16384 is exact in float32.
        self.recipe.sample(f32(-ax_raw / COUNTS_PER_G), f32(-az_raw / COUNTS_PER_G))
        if self.next_tick == t_us:
            self.run_tick()

    def run_tick(self):
        self.recipe.tick()
        self.on_tick(self.next_tick, self.recipe.xoff, self.recipe.yoff)
        self.next_tick += TICK_US
        self.ticks += 1


def tick_json(t_us, seq, x, y):
    return json.dumps({
        "t_us": t_us,
        "seq": seq,
        "x": round(float(x), 6),
        "y": round(float(y), 6),
        "px": pixel(x, TRAVEL_X),
        "py": pixel(y, TRAVEL_Y),
    }, separators=(",", ":"))


# ---------------------------------------------------------------- framing

def crc16(data):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no xorout."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    final_block = True
    for byte in data:
        final_block = True
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                # A full block: code 0xFF, no implied zero after it.
                out.append(0xFF)
                out += block
                block.clear()
                final_block = False
    if final_block:  # not after a full block at the very end (canonical form)
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data):
    """The usual COBS decode loop; raises ValueError on bad input."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            raise ValueError("bad COBS")
        out += data[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def frame(ftype, body):
    payload = bytes([ftype]) + body
    payload += struct.pack(">H", crc16(payload))
    return cobs_encode(payload) + b"\x00"


def offsets_frame(seq, x, y):
    body = struct.pack("<BHHHHB", seq & 0xFF, pixel(x, TRAVEL_X), pixel(y, TRAVEL_Y),
                       RIBBON_X, RIBBON_BOTTOM, 0)
    return frame(OFFSETS, body)


# ---------------------------------------------------------------- live host

class LiveHost:
    def __init__(self, port):
        import serial  # pyserial; only the live mode needs it
        self.ser = serial.Serial(port, 115200, timeout=0.1)
        self.started = time.monotonic()
        self.frames = 0
        self.lost = 0
        self.errors = 0
        self.out_seq = 0
        self.prev_seq = None
        self.prev_time24 = None
        self.board_time = 0
        self.scroller = Scroller(self.send_tick)

    def send_tick(self, t_us, x, y):
        self.ser.write(offsets_frame(self.out_seq, x, y))
        print(tick_json(t_us, self.out_seq, x, y), flush=True)
        self.out_seq = (self.out_seq + 1) & 0xFF

    def handle(self, encoded):
        if len(encoded) > 65:
            self.errors += 1
            return
        try:
            payload = cobs_decode(encoded)
        except ValueError:
            self.errors += 1
            return
        if len(payload) < 3 or crc16(payload) != 0:
            self.errors += 1
            return
        ftype, body = payload[0], payload[1:-2]
        if ftype not in BODY_LENGTHS or len(body) != BODY_LENGTHS[ftype]:
            self.errors += 1
            return
        self.frames += 1
        if ftype == HELLO:
            # The board restarts its sequence numbers after HELLO.
            self.prev_seq = 255
            self.out_seq = 0
        elif ftype == SAMPLE:
            seq = body[0]
            time24 = body[1] | body[2] << 8 | body[3] << 16
            ax, ay, az, temp, gx, gy, gz = struct.unpack(">7h", body[4:18])
            if self.prev_seq is not None:
                gap = (seq - self.prev_seq - 1) % 256
                if gap:
                    self.lost += gap
                    print("peer_host: %d frames lost at %.3f s" % (gap, time.monotonic() - self.started),
                          file=sys.stderr)
            self.prev_seq = seq
            if self.prev_time24 is None:
                self.board_time = time24
            else:
                self.board_time += (time24 - self.prev_time24) % (1 << 24)
            self.prev_time24 = time24
            self.scroller.add_sample(self.board_time, ax, az)

    def run(self):
        self.ser.write(frame(HOST_HELLO, b"\x01"))
        buffer = b""
        while True:
            data = self.ser.read(self.ser.in_waiting or 1)
            if not data:
                continue
            buffer += data
            *runs, buffer = buffer.split(b"\x00")
            for run in runs:
                if run:
                    self.handle(run)


def live(port):
    started = time.monotonic()
    host = None
    try:
        host = LiveHost(port)
        host.run()
    except KeyboardInterrupt:
        pass
    finally:
        if host is not None:
            host.ser.close()
            print("peer_host: stopped: %.1f s, %d frames, %d lost, %d errors, %d ticks"
                  % (time.monotonic() - started, host.frames, host.lost, host.errors,
                     host.scroller.ticks), file=sys.stderr, flush=True)


# ---------------------------------------------------------------- replay

def replay(path):
    samples = 0
    seq = 0

    def on_tick(t_us, x, y):
        nonlocal seq
        print(tick_json(t_us, seq, x, y))
        seq = (seq + 1) & 0xFF

    scroller = Scroller(on_tick)
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].strip().startswith("#"):
                continue
            if row[0].strip()[:1].isalpha():
                continue  # the header
            t_us, ax, ay, az = (int(v) for v in row[:4])
            scroller.add_sample(t_us, ax, az)
            samples += 1
    print("peer_host: replayed %s: %d samples, %d ticks" % (path, samples, scroller.ticks),
          file=sys.stderr)


# ---------------------------------------------------------------- selftest

def selftest():
    """The CRC check value and docs/protocol.md's byte-exact examples."""
    assert crc16(b"123456789") == 0x29B1, hex(crc16(b"123456789"))
    sample_wire = bytes.fromhex("06 02 07 56 34 12 01 02 FF 02 40 03 F9 C0 04 01 FF FF 01 03 0E 95 00")
    payload = cobs_decode(sample_wire[:-1])
    assert payload == bytes.fromhex("02 07 56 34 12 00 00 FF 00 40 00 F9 C0 00 01 FF FF 00 00 0E 95")
    assert crc16(payload) == 0
    assert struct.unpack(">7h", payload[5:19]) == (0, -256, 16384, -1600, 1, -1, 0)
    body = struct.pack("<BHHHHB", 1, 100, 200, 64, 0, 2)
    assert frame(OFFSETS, body) == bytes.fromhex("04 10 01 64 02 C8 02 40 01 01 04 02 5E 2F 00")
    assert frame(HOST_HELLO, b"\x01") == bytes.fromhex("05 11 01 3D 6C 00")
    run = bytes(range(1, 255))
    for raw, encoded in [(b"\x00", b"\x01\x01"), (bytes.fromhex("11 22 00 33"), bytes.fromhex("03 11 22 02 33")),
                         (run, b"\xff" + run), (b"\x00" + run, b"\x01\xff" + run),
                         (run + b"\xff", b"\xff" + run + b"\x02\xff")]:
        assert cobs_encode(raw) == encoded
        assert cobs_decode(encoded) == raw
    print("peer_host: selftest passed (float32 via %s)" % ("numpy" if numpy is not None else "struct"))


def main(argv):
    if len(argv) == 2 and argv[1] == "selftest":
        selftest()
    elif len(argv) == 3 and argv[1] == "replay":
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        replay(argv[2])
    elif len(argv) == 2 and not argv[1].startswith("-"):
        live(argv[1])
    else:
        print("usage: peer_host.py PORT | replay FILE.csv | selftest", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
