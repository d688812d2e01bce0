// tiltserial is built and tested on Linux only (README, "Platforms"): the
// edges use Linux's pseudo-terminals, /proc, sysfs and Glibc directly. Both
// tools link SerialIO, so a build anywhere else stops here with one line
// instead of a page of missing symbols.
#if !os(Linux)
#error("tiltserial builds on Linux only (README, Platforms): its serial and emulator code use Linux's ptys, /proc and sysfs")
#endif
