#pragma once
// Test-only helpers that let libserialport 0.1.1 drive a pseudo-terminal.
//
// 1. `ioctl` is interposed (this object is linked into the test executable, which
//    exports its symbols dynamically, so libserialport's calls bind here). Calls are
//    forwarded to the real ioctl; only TIOCMGET/TIOCMSET/TIOCMBIS/TIOCMBIC that fail
//    with ENOTTY (ptys have no modem lines) are turned into success (TIOCMGET reports
//    no lines set). Everything else, including every other error, is untouched.
// 2. `cpty_run_with_fs_ids` runs a callback on a fresh thread whose filesystem uid/gid
//    are switched, so a root test process can observe EACCES.
#include <sys/types.h>

/// How many modem-line ioctls were faked so far (proves the interposer is active).
unsigned long cpty_faked_modem_ioctls(void);

/// Runs `body(context)` on a new thread with setfsuid(uid)/setfsgid(gid) applied to
/// that thread only (Linux credentials are per thread; the capabilities that bypass
/// file permissions are dropped while fsuid is not 0). Returns 0, or an errno value
/// if the thread could not be created or the ids could not be switched.
int cpty_run_with_fs_ids(uid_t uid, gid_t gid, void (*body)(void *), void *context);
