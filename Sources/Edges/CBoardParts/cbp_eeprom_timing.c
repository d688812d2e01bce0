// An EEPROM write takes the chip 3.4 ms (ATmega328P datasheet, "EEPROM
// programming time": 26 368 cycles of the 8 MHz calibrated oscillator), with
// EEPE set until it ends; avr-libc's eeprom_write_byte waits on EEPE before
// each byte. simavr 1.6 writes the byte and clears EEPE at once, so 100
// EEPROM.write calls took 0.2 ms where a board takes 340 ms (an outside
// tester's): a sketch that writes a block before its watchdog expires, or
// times a save, passed here and not on the board. EEPE now stays set for the
// write's 3.4 ms after simavr has written the byte (its EE_READY interrupt
// already comes 3.4 ms late).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_time.h>
#include <sim_cycle_timers.h>
#include <avr_eeprom.h>

#define CBP_EEPROM_WRITE_US 3400

typedef struct {
    avr_io_t io;  // first member: simavr's module list holds it
    avr_eeprom_t *eeprom;
    avr_cycle_count_t master_at;  // when EEMPE was last set (a write must follow within 4 cycles)
    bool master_seen;
} cbp_eeprom_timing;

static avr_cycle_count_t cbp_eeprom_written(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    avr_regbit_clear(avr, ((cbp_eeprom_timing *)param)->eeprom->eepe);
    return 0;
}

static void cbp_eeprom_after_eecr(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr;
    cbp_eeprom_timing *t = param;
    avr_eeprom_t *p = t->eeprom;
    bool master = value & (p->eempe.mask << p->eempe.bit), program = value & (p->eepe.mask << p->eepe.bit);
    if (program && t->master_seen && avr->cycle - t->master_at <= 4) {
        // simavr wrote the byte and cleared EEPE: the write goes on for its 3.4 ms.
        t->master_seen = false;
        avr_regbit_set(avr, p->eepe);
        avr_cycle_timer_cancel(avr, cbp_eeprom_written, t);
        avr_cycle_timer_register_usec(avr, CBP_EEPROM_WRITE_US, cbp_eeprom_written, t);
    } else if (master) {
        t->master_seen = true;
        t->master_at = avr->cycle;
    }
}

static void cbp_eeprom_timing_reset(avr_io_t *io) {
    cbp_eeprom_timing *t = (cbp_eeprom_timing *)io;
    t->master_seen = false;
    avr_cycle_timer_cancel(io->avr, cbp_eeprom_written, t);
}

bool cbp_eeprom_timing_install(avr_t *avr) {
    avr_eeprom_t *eeprom = NULL;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "eeprom") == 0) eeprom = (avr_eeprom_t *)io;
    }
    if (!eeprom) return true;  // a core without one
    cbp_eeprom_timing *t = calloc(1, sizeof *t);
    if (!t) return false;
    t->eeprom = eeprom;
    t->io.kind = "eeprom-timing";
    t->io.reset = cbp_eeprom_timing_reset;
    cbp_register_module(avr, &t->io);
    return cbp_io_after(avr, eeprom->r_eecr, cbp_eeprom_after_eecr, t);
}
