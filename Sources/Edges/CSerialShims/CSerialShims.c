#define _GNU_SOURCE
#include "CSerialShims.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>

int cserial_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

int cserial_ioctl_none(int fd, unsigned long request) { return ioctl(fd, request); }

int cserial_set_nonblocking(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    return fcntl(fd, F_SETFL, flags);
}

unsigned int cserial_dev_major(dev_t dev) { return major(dev); }
unsigned int cserial_dev_minor(dev_t dev) { return minor(dev); }

int cserial_ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout) {
    return ppoll(fds, count, timeout, NULL);
}
