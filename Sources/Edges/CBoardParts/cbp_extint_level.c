// INT0/INT1 at "low level" (ISCn1:0 = 0) as the chip has them: while the
// interrupt is enabled and the pin is low it is asked for again and again,
// whether the pin went low before or after it was enabled. simavr's own
// repetition polls every cycle while the pin is low, enabled or not (the
// MPU-6050's latched INT slowed the core 4x), so cbp_avr_create turns it off,
// which left a falling edge as the only trigger: a sketch that enables the
// interrupt on a line already low (attachInterrupt(…, LOW) before sleeping
// until the sensor's INT) waited forever. Here the repetition runs only while
// it is wanted: enabled, at low level, the pin low; checked when EIMSK or
// EICRA is written and when the pin moves, then every 16 cycles while it lasts.
// INTFn reads 0 at low level, as on the chip ("always cleared"): simavr sets
// it with every request, so EIFR's reads hide it (the ISR saw it set).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <sim_interrupts.h>
#include <sim_cycle_timers.h>
#include <avr_extint.h>

#define CBP_LEVEL_POLL_CYCLES 16

typedef struct cbp_extint_level cbp_extint_level;

typedef struct {
    cbp_extint_level *owner;
    int index;
    bool polling;
} cbp_level_line;

struct cbp_extint_level {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    avr_extint_t *extint;
    cbp_level_line lines[EXTINT_COUNT];
};

// At low level (ISCn1:0 = 0); false for an edge mode, a line without a pin,
// or an edge-only one (INT2 on some parts).
static bool cbp_level_mode(avr_t *avr, avr_extint_t *p, int i) {
    return p->eint[i].port_ioctl && p->eint[i].isc[1].reg && avr_regbit_get_array(avr, p->eint[i].isc, 2) == 0;
}

static bool cbp_level_wanted(avr_t *avr, avr_extint_t *p, int i) {
    if (!cbp_level_mode(avr, p, i)) return false;
    if (!avr_regbit_get(avr, p->eint[i].vector.enable)) return false;
    return p->io.irq[i].value == 0;
}

// Clears INTFn of every line at low level; the request itself is kept pending.
static void cbp_level_hide_flags(avr_t *avr, avr_extint_t *p) {
    for (int i = 0; i < EXTINT_COUNT; i++) {
        if (cbp_level_mode(avr, p, i)) avr_regbit_clear(avr, p->eint[i].vector.raised);
    }
}

static uint8_t cbp_level_flags_read(avr_t *avr, avr_io_addr_t addr, void *param) {
    cbp_level_hide_flags(avr, param);
    return avr->data[addr];
}

static avr_cycle_count_t cbp_level_poll(avr_t *avr, avr_cycle_count_t when, void *param) {
    cbp_level_line *line = param;
    avr_extint_t *p = line->owner->extint;
    if (!cbp_level_wanted(avr, p, line->index)) {
        line->polling = false;
        return 0;
    }
    // A request sets INTFn in simavr; the chip has none at low level.
    avr_int_vector_t *vector = &p->eint[line->index].vector;
    if (!vector->pending) {
        avr_raise_interrupt(avr, vector);
        avr_regbit_clear(avr, vector->raised);
    }
    return when + CBP_LEVEL_POLL_CYCLES;
}

static void cbp_level_check(avr_t *avr, cbp_extint_level *level) {
    for (int i = 0; i < EXTINT_COUNT; i++) {
        cbp_level_line *line = &level->lines[i];
        if (line->polling || !cbp_level_wanted(avr, level->extint, i)) continue;
        line->polling = true;
        avr_cycle_timer_register(avr, 1, cbp_level_poll, line);
    }
}

static void cbp_level_register_written(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr; (void)value;
    cbp_extint_level *level = param;
    cbp_level_hide_flags(avr, level->extint);  // a line just set to low level drops its flag
    cbp_level_check(avr, level);
}

static avr_cycle_count_t cbp_level_recheck(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    cbp_level_check(avr, param);
    return 0;
}

// simavr stores the pin irq's new level only after its hooks ran: looked at
// now, a line that just fell still read high and the repetition never
// started (a LOW interrupt enabled before the line fell came once, or never).
// A cycle later the level is the new one.
static void cbp_level_pin_moved(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)value;
    cbp_extint_level *level = param;
    avr_cycle_timer_cancel(level->io.avr, cbp_level_recheck, level);
    avr_cycle_timer_register(level->io.avr, 1, cbp_level_recheck, level);
}

static void cbp_level_reset(avr_io_t *io) {
    cbp_extint_level *level = (cbp_extint_level *)io;
    for (int i = 0; i < EXTINT_COUNT; i++) {
        if (level->lines[i].polling) avr_cycle_timer_cancel(io->avr, cbp_level_poll, &level->lines[i]);
        level->lines[i].polling = false;
    }
    avr_cycle_timer_cancel(io->avr, cbp_level_recheck, level);
}

bool cbp_extint_level_install(avr_t *avr) {
    avr_extint_t *p = NULL;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "extint") == 0) p = (avr_extint_t *)io;
    }
    if (!p) return true;  // a core without external interrupts: nothing to do
    cbp_extint_level *level = calloc(1, sizeof *level);
    if (!level) return false;
    level->io.kind = "extint-level";
    level->io.reset = cbp_level_reset;
    level->extint = p;
    cbp_register_module(avr, &level->io);
    for (int i = 0; i < EXTINT_COUNT; i++) {
        level->lines[i] = (cbp_level_line){level, i, false};
        if (!p->eint[i].port_ioctl || !p->eint[i].isc[1].reg) continue;
        avr_irq_register_notify(p->io.irq + i, cbp_level_pin_moved, level);
        if (!cbp_io_after(avr, p->eint[i].vector.enable.reg, cbp_level_register_written, level)) return false;
        if (!cbp_io_after(avr, p->eint[i].isc[0].reg, cbp_level_register_written, level)) return false;
        avr_io_addr_t flags = AVR_DATA_TO_IO(p->eint[i].vector.raised.reg);
        if (avr->io[flags].r.c == cbp_level_flags_read) continue;  // INT0 and INT1 share EIFR
        if (avr->io[flags].r.c) return false;                     // someone else reads it: not expected
        avr_register_io_read(avr, p->eint[i].vector.raised.reg, cbp_level_flags_read, p);
    }
    return true;
}
