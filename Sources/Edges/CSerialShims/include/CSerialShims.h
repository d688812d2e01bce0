#pragma once
// Thin C shims for SerialIO: variadic calls (ioctl, fcntl) and function-like macros
// (major/minor) that Swift cannot call directly. No logic lives here.
#include <sys/types.h>

/// ioctl with a pointer argument; returns -1 and sets errno on failure.
int cserial_ioctl_ptr(int fd, unsigned long request, void *arg);
/// ioctl without an argument (TIOCEXCL, TIOCNXCL).
int cserial_ioctl_none(int fd, unsigned long request);
/// Sets or clears O_NONBLOCK on fd.
int cserial_set_nonblocking(int fd, int on);
/// Major and minor numbers of a device id (glibc's macros).
unsigned int cserial_dev_major(dev_t dev);
/// cserial_dev_major's counterpart: the minor number (glibc's minor()).
unsigned int cserial_dev_minor(dev_t dev);

#include <poll.h>
#include <time.h>
/// ppoll without a signal mask (needs _GNU_SOURCE, which Swift's Glibc module lacks).
int cserial_ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout);
