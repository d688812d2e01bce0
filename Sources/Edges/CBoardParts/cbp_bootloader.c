// What an Arduino's bootloader does before every sketch start: MCUSR cleared
// and the watchdog off. Optiboot (Uno, Nano, Pro Mini), stk500v2 (Mega) and
// Caterina (Leonardo, Micro) all do so (optiboot.c: MCUSR = 0 and
// watchdogConfig(WATCHDOG_OFF) before appStart; Caterina.c: wdt_disable()).
// simavr starts the sketch straight after a reset, and after a watchdog reset
// the chip keeps the watchdog on at its fastest period (WDRF forces WDE), so
// the common reboot idiom, wdt_enable(WDTO_15MS) and a loop, reset the board
// again 16 ms into every start, for good (found by an outside tester); a
// sketch also read MCUSR's reset cause, which a board's sketch never sees.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_cycle_timers.h>
#include <avr_watchdog.h>

typedef struct {
    avr_io_t io;  // first member: simavr's module list holds it
    avr_watchdog_t *watchdog;
} cbp_bootloader;

static avr_cycle_count_t cbp_bootloader_hand_off(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    avr_watchdog_t *wd = ((cbp_bootloader *)param)->watchdog;
    avr->data[wd->wdrf.reg] = 0;  // MCUSR = 0: WDRF no longer forces WDE
    // wdt_disable(): WDCE and WDE, then 0, within four cycles.
    cbp_io_store(avr, wd->wde.reg, (uint8_t)((1u << wd->wdce.bit) | (1u << wd->wde.bit)));
    cbp_io_store(avr, wd->wde.reg, 0);
    return 0;
}

// After simavr's own reset (the watchdog's sets WDE and starts its timer).
static void cbp_bootloader_reset(avr_io_t *io) {
    avr_cycle_timer_register(io->avr, 1, cbp_bootloader_hand_off, io);
}

bool cbp_bootloader_install(avr_t *avr) {
    cbp_bootloader *b = calloc(1, sizeof *b);
    if (!b) return false;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "watchdog") == 0) b->watchdog = (avr_watchdog_t *)io;
    }
    if (!b->watchdog) {
        free(b);
        return true;  // a core without one: nothing to hand over
    }
    b->io.kind = "bootloader";
    b->io.reset = cbp_bootloader_reset;
    cbp_register_module(avr, &b->io);
    cbp_bootloader_reset(&b->io);  // the power-on start
    return true;
}
