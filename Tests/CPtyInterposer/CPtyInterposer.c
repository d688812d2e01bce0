#define _GNU_SOURCE
#include "CPtyInterposer.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/fsuid.h>
#include <asm/ioctls.h>  // TIOCM* numbers, without a second ioctl prototype

// glibc declares: int ioctl(int fd, unsigned long request, ...). Not including
// <sys/ioctl.h> here keeps this definition free of a conflicting prototype check.
typedef int (*ioctl_fn)(int, unsigned long, void *);

static _Atomic unsigned long faked_count = 0;

static ioctl_fn real_ioctl(void) {
    static _Atomic(ioctl_fn) cached = NULL;
    ioctl_fn fn = atomic_load(&cached);
    if (!fn) {
        fn = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
        atomic_store(&cached, fn);
    }
    return fn;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list args;
    va_start(args, request);
    void *arg = va_arg(args, void *);
    va_end(args);

    int result = real_ioctl()(fd, request, arg);
    if (result == -1 && errno == ENOTTY) {
        switch (request) {
        case TIOCMGET:
            if (arg) *(int *)arg = 0;
            atomic_fetch_add(&faked_count, 1);
            errno = 0;
            return 0;
        case TIOCMSET: case TIOCMBIS: case TIOCMBIC:
            atomic_fetch_add(&faked_count, 1);
            errno = 0;
            return 0;
        default:
            break;
        }
    }
    return result;
}

unsigned long cpty_faked_modem_ioctls(void) { return atomic_load(&faked_count); }

struct fs_ids_job {
    uid_t uid;
    gid_t gid;
    void (*body)(void *);
    void *context;
    int error;
};

static void *run_job(void *raw) {
    struct fs_ids_job *job = raw;
    // setfsgid first: once fsuid is not 0 the thread may lose the right to change it.
    setfsgid(job->gid);
    setfsuid(job->uid);
    if ((uid_t)setfsuid((uid_t)-1) != job->uid || (gid_t)setfsgid((gid_t)-1) != job->gid) {
        job->error = EPERM;
    } else {
        job->body(job->context);
    }
    setfsuid(0);
    setfsgid(0);
    return NULL;
}

int cpty_run_with_fs_ids(uid_t uid, gid_t gid, void (*body)(void *), void *context) {
    struct fs_ids_job job = { uid, gid, body, context, 0 };
    pthread_t thread;
    int err = pthread_create(&thread, NULL, run_job, &job);
    if (err) return err;
    pthread_join(thread, NULL);
    return job.error;
}
