// The floor for Benchmarks/peer/compare's cadence part: a bare host that does
// nothing but wait, read and answer. It opens the port raw, sends one 0x00 (so
// the board knows it is there), then for every read that ends at least one
// frame (a 0x00 in it) writes one 15-byte frame, the size of an OFFSETS frame.
//
//     echo_host PORT
//
// Stops on SIGINT/SIGTERM and prints "echo_host: stopped: N frames, 0 lost"
// like the hosts it stands beside.
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "bare_host.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: echo_host PORT\n");
        return 2;
    }
    int fd = bare_host_open("echo_host", argv[1], 0);
    if (fd < 0) return 1;
    unsigned char in[4096];
    unsigned long frames = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (!stopping) {
        if (poll(&p, 1, -1) <= 0) continue;
        ssize_t n = read(fd, in, sizeof in);
        if (n <= 0) break;
        int ends = 0;
        for (ssize_t i = 0; i < n; i++) ends += in[i] == 0;
        if (!ends) continue;
        frames += (unsigned long)ends;
        if (write(fd, bare_reply, sizeof bare_reply) != (ssize_t)sizeof bare_reply) break;
    }
    fprintf(stderr, "echo_host: stopped: %lu frames, 0 lost\n", frames);
    return 0;
}
