// A board at its real cadence, for Benchmarks/peer/compare's cadence part:
// writes prepared frames to a pseudo-terminal on an absolute schedule and
// times each tick: from the write of the frame that completes it to the end
// (the 0x00 delimiter) of the first reply after that write. A host answers
// exactly that frame; a bare echo answers every read, so its first reply
// after the write is its answer to that frame.
//
//     cadence_board FRAMES PERIOD_US SECONDS WARMUP_SECONDS
//
// FRAMES: records of u8 flags (1: the frame completes a tick), u16
// little-endian length, that many bytes; the first (HELLO) goes out once the
// host has sent its first byte, the rest one per PERIOD_US until the run
// or the file ends. Prints the
// pty's path on stdout first, then at the end "frames W dropped D ticks T
// answered A late L" (dropped: the pty was full; late: the next tick's frame
// went out before the last one's answer) and one latency in ns per line
// (ticks after WARMUP_SECONDS only). C, not Python: the board's own overhead
// must not count against any host.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_until(uint64_t ns) {
    struct timespec t = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {}
}

static int fail(const char *what) {
    fprintf(stderr, "cadence_board: %s: %s\n", what, strerror(errno));
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: cadence_board FRAMES PERIOD_US SECONDS WARMUP_SECONDS\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) return fail(argv[1]);
    static uint8_t data[1 << 23];
    size_t size = fread(data, 1, sizeof data, f);
    fclose(f);
    static size_t offsets[1 << 18];
    size_t count = 0;
    for (size_t at = 0; at + 3 <= size && count < 1 << 18;) {
        offsets[count++] = at;
        at += 3 + (data[at + 1] | (size_t)data[at + 2] << 8);
    }
    if (count < 2) {
        fprintf(stderr, "cadence_board: %s holds fewer than two frames\n", argv[1]);
        return 2;
    }
    // Wake on time: a sleeping task's timers may fire up to 50 µs late by default.
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    uint64_t period = strtoull(argv[2], NULL, 10) * 1000u;
    uint64_t length = (uint64_t)(atof(argv[3]) * 1e9);
    uint64_t warmup = (uint64_t)(atof(argv[4]) * 1e9);

    int pty = posix_openpt(O_RDWR | O_NOCTTY);
    if (pty < 0 || grantpt(pty) || unlockpt(pty)) return fail("posix_openpt");
    // Keep the slave open ourselves until the host has it, so the master
    // never sees a hang-up in between.
    int keep = open(ptsname(pty), O_RDWR | O_NOCTTY);
    if (keep < 0) return fail("open slave");
    printf("%s\n", ptsname(pty));
    fflush(stdout);
    fcntl(pty, F_SETFL, O_NONBLOCK);

    uint8_t in[4096];
    struct pollfd p = {.fd = pty, .events = POLLIN};
    // The host's first byte (its HOST_HELLO; the echo sends a bare delimiter) says it is ready.
    if (poll(&p, 1, 30000) <= 0) {
        fprintf(stderr, "cadence_board: the host sent nothing within 30 s\n");
        return 1;
    }
    close(keep);
    while (read(pty, in, sizeof in) > 0) {}

    static uint64_t latencies[1 << 20];
    size_t ticks = 0, answered = 0, kept = 0, late = 0, frames = 0, dropped = 0;
    uint64_t start = now_ns(), tick_written = 0;
    int waiting = 0;  // a tick's frame was written and no reply has ended since
    for (size_t next = 0;; next++) {
        size_t index = next;
        uint64_t due = start + next * period;
        if (due > start + length || index >= count) break;
        // Until the frame is due, collect replies.
        for (;;) {
            uint64_t t = now_ns();
            if (t >= due) break;
            // To the ns: poll()'s whole milliseconds, rounded up, sent frames
            // up to a millisecond late (the schedule jittered by that much).
            struct timespec wait = {.tv_sec = (time_t)((due - t) / 1000000000u), .tv_nsec = (long)((due - t) % 1000000000u)};
            p.revents = 0;
            if (ppoll(&p, 1, &wait, NULL) <= 0) continue;
            ssize_t n = read(pty, in, sizeof in);
            uint64_t at = now_ns();
            for (ssize_t i = 0; i < n; i++) {
                if (in[i] != 0) continue;
                if (waiting) {
                    answered++;
                    if (at - start >= warmup && kept < sizeof latencies / sizeof *latencies) latencies[kept++] = at - tick_written;
                    waiting = 0;
                }
            }
            if (at >= due) break;
        }
        sleep_until(due);
        const uint8_t *record = data + offsets[index];
        size_t bytes = record[1] | (size_t)record[2] << 8;
        int completes = record[0] & 1;
        if (completes && waiting) late++;  // the last tick's answer had not come
        uint64_t written = now_ns();
        ssize_t sent = write(pty, record + 3, bytes);
        if (sent < 0 && errno != EAGAIN) return fail("write");
        if (sent != (ssize_t)bytes) {
            dropped++;  // the pty is full: the host fell behind, as a UART would drop it
            continue;
        }
        frames++;
        if (completes) {
            ticks++;
            tick_written = written;
            waiting = 1;
        }
    }
    printf("frames %zu dropped %zu ticks %zu answered %zu late %zu\n", frames, dropped, ticks, answered, late);
    for (size_t i = 0; i < kept; i++) printf("%llu\n", (unsigned long long)latencies[i]);
    return 0;
}
