// The floor for Benchmarks/peer/compare's cadence part: a bare host that does
// nothing but wait, read and answer. It opens the port raw, sends one 0x00 (so
// the board knows it is there), then for every read that ends at least one
// frame (a 0x00 in it) writes one 15-byte frame, the size of an OFFSETS frame.
//
//     echo_host PORT
//
// Stops on SIGINT/SIGTERM and prints "echo_host: stopped: N frames, 0 lost"
// like the hosts it stands beside.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;
static void on_signal(int s) { (void)s; stopping = 1; }

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: echo_host PORT\n");
        return 2;
    }
    int fd = open(argv[1], O_RDWR | O_NOCTTY);
    if (fd < 0) {
        perror("echo_host: open");
        return 1;
    }
    struct termios t;
    tcgetattr(fd, &t);
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;  // no SA_RESTART: the poll returns EINTR
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    static const unsigned char reply[15] = {14, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0};
    unsigned char hello = 0;
    if (write(fd, &hello, 1) != 1) return 1;
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
        if (write(fd, reply, sizeof reply) != (ssize_t)sizeof reply) break;
    }
    fprintf(stderr, "echo_host: stopped: %lu frames, 0 lost\n", frames);
    return 0;
}
