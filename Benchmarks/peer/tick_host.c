// A second floor for Benchmarks/peer/compare's cadence part: a bare host that
// wakes the way tiltserial is designed to (docs/perf/host.md, "Dozing between
// ticks"). It answers only the frame that completes a 30 ms tick, and after
// each answer it sleeps until 200 µs before the next such frame is due, reads
// what queued meanwhile, then waits for that frame to become readable: two
// wake-ups a tick. No decoding, no physics: which frame completes a tick it
// knows by counting (the cadence board's frames keep an exact schedule: the
// first sample at or after each 30 ms), and when the next is due from the
// last one's arrival. What it costs and how fast it answers is the price of
// the wake pattern itself on this machine, beside echo_host's wake per frame.
//
//     tick_host PERIOD_US PORT
//
// Opens the port raw, sends one 0x00 (so the board knows it is there), answers
// with one 15-byte frame (an OFFSETS frame's size). Stops on SIGINT/SIGTERM
// and prints "tick_host: stopped: N frames, 0 lost" like the hosts beside it.
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bare_host.h"

enum { TICK_US = 30000, MARGIN_US = 200 };

static uint64_t now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

static unsigned long frames;      // frames ended (HELLO is frame 0)
static uint64_t period_us, next_tick_us = TICK_US;

// Counts the frames that `bytes` end; true if one of them completes a tick.
static int ends_tick(const unsigned char *bytes, ssize_t n) {
    int tick = 0;
    for (ssize_t i = 0; i < n; i++) {
        if (bytes[i] != 0) continue;
        uint64_t sample = frames++;  // sample k is frame k + 1, stamped (k) × period
        if (sample == 0) continue;
        uint64_t stamp = (sample - 1) * period_us;
        if (sample > 1 && stamp >= next_tick_us) {
            tick = 1;
            while (next_tick_us <= stamp) next_tick_us += TICK_US;
        }
    }
    return tick;
}

int main(int argc, char **argv) {
    if (argc != 3 || (period_us = strtoull(argv[1], NULL, 10)) == 0) {
        fprintf(stderr, "usage: tick_host PERIOD_US PORT\n");
        return 2;
    }
    int fd = bare_host_open("tick_host", argv[2], O_NONBLOCK);
    if (fd < 0) return 1;
    unsigned char in[4096];
    struct pollfd p = {.fd = fd, .events = POLLIN};
    uint64_t doze_until = 0;  // 0: no tick answered yet, wake for every read
    // The ticks' frames arrive on the board's schedule, 30 ms apart: the k-th
    // at base + k × 30 ms, base the earliest seen (a wake-up is late, never early).
    uint64_t base = UINT64_MAX, ticks = 0;
    while (!stopping) {
        uint64_t now = now_us();
        if (doze_until > now) {
            // The doze; after it the queued frames are read at once (no poll first).
            struct timespec d = {.tv_sec = (time_t)((doze_until - now) / 1000000u),
                                 .tv_nsec = (long)((doze_until - now) % 1000000u) * 1000};
            ppoll(NULL, 0, &d, NULL);
        } else if (poll(&p, 1, -1) <= 0) {
            continue;
        }
        uint64_t woke = now_us();
        doze_until = 0;
        // Drain: a read shorter than a terminal's most shows the queue is empty.
        int tick = 0;
        ssize_t n;
        do {
            n = read(fd, in, sizeof in);
            if (n > 0) tick |= ends_tick(in, n);
        } while (n >= 4095);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
        if (!tick) continue;
        if (write(fd, bare_reply, sizeof bare_reply) != (ssize_t)sizeof bare_reply) break;
        uint64_t arrived = woke - ticks * TICK_US;
        if (arrived < base) base = arrived;
        ticks++;
        doze_until = base + ticks * TICK_US - MARGIN_US;
    }
    fprintf(stderr, "tick_host: stopped: %lu frames, 0 lost\n", frames);
    return 0;
}
