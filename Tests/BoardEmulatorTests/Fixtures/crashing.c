// crashing: a store far beyond the 2 KiB of RAM, which simavr reports as a
// crash. AVRBoardLifecycleTests: the board halts, not the process.
#include <stdint.h>

int main(void) {
    *(volatile uint8_t *)0x9000 = 1;
    for (;;) {}
}
