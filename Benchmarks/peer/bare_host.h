// What echo_host.c and tick_host.c share: the port opened raw, SIGINT and
// SIGTERM that end the loop, the byte that tells the board the host is there,
// and the answer, one 15-byte frame (an OFFSETS frame's size).
#ifndef BARE_HOST_H
#define BARE_HOST_H
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;
static void on_signal(int s) { (void)s; stopping = 1; }

static const unsigned char bare_reply[15] = {14, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0};

// Opens `path` raw (with `flags`, e.g. O_NONBLOCK), makes SIGINT and SIGTERM
// set `stopping` (no SA_RESTART: a wait returns EINTR) and sends one 0x00.
// -1, having said why, if that fails.
static int bare_host_open(const char *who, const char *path, int flags) {
    int fd = open(path, O_RDWR | O_NOCTTY | flags);
    if (fd < 0) {
        fprintf(stderr, "%s: open %s: %s\n", who, path, strerror(errno));
        return -1;
    }
    struct termios t;
    tcgetattr(fd, &t);
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    unsigned char hello = 0;
    if (write(fd, &hello, 1) != 1) {
        fprintf(stderr, "%s: write %s: %s\n", who, path, strerror(errno));
        return -1;
    }
    return fd;
}
#endif
