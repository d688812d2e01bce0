// The sleep modes as the chip has them, where simavr 1.6 runs every mode as
// idle. In power-down, power-save, standby and extended standby the I/O clock
// stops, so only the datasheet's wake-up sources (table "Active clock domains
// and wake-up sources") end the sleep: INT0/INT1 at low level (any edge too on
// the 2560's and 32U4's INT3:0, seen without a clock), pin changes, the
// watchdog, and Timer2 where it runs from its own crystal; in ADC noise
// reduction also the ADC, the EEPROM and Timer2. The core runs again after the
// oscillator's start-up (16K clock cycles from power-down: 1 ms on an Uno).
// Before, Timer0's overflow woke the core within a millisecond, so a sketch
// that sleeps until the watchdog or the sensor's INT went on at once.
// An interrupt that is no wake-up source stays pending while the core sleeps
// (simavr's timers keep counting: millis() moves on by one tick per wake,
// where the chip's stands still); an INTn edge the chip cannot see without a
// clock is dropped. SLEEP with SE clear does nothing, as on the chip (simavr
// slept). Also here: the watchdog's interrupt mode (WDIE without WDE) keeps
// interrupting every period; simavr 1.6 cleared WDIE at the first one, as
// only the interrupt and reset mode does (fixed upstream after 1.6, d6ba83c).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <sim_interrupts.h>
#include <sim_cycle_timers.h>
#include <avr_extint.h>
#include <avr_ioport.h>
#include <avr_watchdog.h>
#include <avr_timer.h>
#include <avr_adc.h>
#include <avr_eeprom.h>

#define CBP_SMCR 0x53  // the same data address on the 328P, the 2560 and the 32U4
#define CBP_SLEEP_OPCODE 0x9588
#define CBP_WAKE_MAX 24

enum { cbp_mode_idle = 0, cbp_mode_adc = 1, cbp_mode_down = 2, cbp_mode_save = 3, cbp_mode_standby = 6, cbp_mode_extended = 7 };

typedef enum {
    cbp_wake_always,     // pin change, watchdog
    cbp_wake_int,        // INTn: at low level; any trigger when detected without a clock
    cbp_wake_timer2,     // Timer2, when clocked from its own crystal (AS2); any mode but power-down and standby
    cbp_wake_adc_mode,   // ADC, EEPROM: ADC noise reduction only
} cbp_wake_kind;

typedef struct {
    avr_int_vector_t *vector;
    cbp_wake_kind kind;
    avr_extint_t *extint;  // cbp_wake_int
    int line;              // cbp_wake_int: INTn
    avr_timer_t *timer;    // cbp_wake_timer2
} cbp_wake_source;

typedef struct {
    avr_io_t io;  // first member: simavr's module list holds it
    void (*run)(avr_t *avr);  // simavr's own step, avr->run while awake
    uint64_t wake_at;     // while the oscillator starts after a wake-up: the cycle the core runs again
    int async_edge_lines; // INTn below this see edges asleep (INT3:0 on the 2560 and 32U4)
    avr_watchdog_t *watchdog;
    int count;
    cbp_wake_source sources[CBP_WAKE_MAX];
} cbp_sleep_modes;

static int cbp_sleep_mode(avr_t *avr) { return (avr->data[CBP_SMCR] >> 1) & 7; }

static bool cbp_int_at_low_level(avr_t *avr, const cbp_wake_source *s) {
    avr_extint_t *p = s->extint;
    return p->eint[s->line].isc[1].reg && avr_regbit_get_array(avr, p->eint[s->line].isc, 2) == 0;
}

// Whether `s` ends a sleep in `mode` (never idle here).
static bool cbp_wakes(avr_t *avr, const cbp_sleep_modes *m, const cbp_wake_source *s, int mode) {
    switch (s->kind) {
    case cbp_wake_always: return true;
    case cbp_wake_int: return s->line < m->async_edge_lines || cbp_int_at_low_level(avr, s);
    case cbp_wake_timer2:
        return mode != cbp_mode_down && mode != cbp_mode_standby && s->timer->as2.reg && avr_regbit_get(avr, s->timer->as2);
    case cbp_wake_adc_mode: return mode == cbp_mode_adc;
    }
    return false;
}

// Whether a wake-up source is pending; an INTn edge the chip would not have
// seen asleep is dropped on the way.
static bool cbp_wake_pending(avr_t *avr, cbp_sleep_modes *m, int mode) {
    bool wake = false;
    for (int i = 0; i < m->count; i++) {
        cbp_wake_source *s = &m->sources[i];
        if (!s->vector->pending) continue;
        if (cbp_wakes(avr, m, s, mode)) wake = true;
        else if (s->kind == cbp_wake_int) cbp_interrupt_withdraw(avr, s->vector);
    }
    return wake;
}

static bool cbp_deep(int mode) { return mode != cbp_mode_idle && mode != 4 && mode != 5; }  // 4, 5: reserved

// Start-up after a wake-up, in clock cycles: the crystal's 16K CK from
// power-down and power-save with the fuses Arduino boards ship with (CKSEL
// 1111, SUT 11), 6 from standby (the oscillator kept running); none from ADC
// noise reduction, where only the CPU's clock stops.
static uint64_t cbp_startup_cycles(int mode) {
    switch (mode) {
    case cbp_mode_down: case cbp_mode_save: return 16384;
    case cbp_mode_standby: case cbp_mode_extended: return 6;
    default: return 0;
    }
}

// One step asleep: the timers run; the core stays asleep until a wake-up
// source is pending and the oscillator has started. False once awake.
static bool cbp_sleep_step(avr_t *avr, cbp_sleep_modes *m) {
    int mode = cbp_sleep_mode(avr);
    if (m->wake_at) {
        if (avr->cycle >= m->wake_at) {
            m->wake_at = 0;
            avr->state = cpu_Running;
            return false;
        }
        avr->state = cpu_Sleeping;
        avr_cycle_count_t sleep = avr_cycle_timer_process(avr);
        avr->state = cpu_Sleeping;  // what comes during the start-up waits for it
        uint64_t left = m->wake_at - avr->cycle;
        avr->cycle += 1 + sleep < left ? 1 + sleep : left;
        return true;
    }
    // Raised from outside a step (a pin a part drove) with no wake-up source: still asleep.
    if (avr->state == cpu_Running && !cbp_wake_pending(avr, m, mode)) avr->state = cpu_Sleeping;
    if (avr->state == cpu_Sleeping) {
        avr_cycle_count_t sleep = avr_cycle_timer_process(avr);
        if (avr->state == cpu_Running && !cbp_wake_pending(avr, m, mode)) avr->state = cpu_Sleeping;
        if (avr->state == cpu_Sleeping) {
            if (!avr->sreg[S_I]) {
                avr->state = cpu_Done;  // as simavr: asleep with interrupts off, for good
                return false;
            }
            avr->cycle += 1 + sleep;
            return true;
        }
    }
    uint64_t startup = avr->state == cpu_Running ? cbp_startup_cycles(mode) : 0;
    if (!startup) return false;
    m->wake_at = avr->cycle + startup;
    avr->state = cpu_Sleeping;
    return true;
}

// avr->run while the core sleeps below idle, in place of simavr's step.
static void cbp_sleep_run(avr_t *avr) {
    cbp_sleep_modes *m = avr->custom.data;
    if (cbp_sleep_step(avr, m)) return;
    avr->run = m->run;
    if (avr->state == cpu_Running && avr->interrupt_state) avr_service_interrupts(avr);
}

// avr->sleep: simavr calls it from its own step once SLEEP has put the core
// to sleep, then adds `how_long` + 1 cycles and takes any pending interrupt.
// Below idle our step takes over until a wake-up source comes, so a running
// core pays nothing for this (a check per instruction cost 5-10 %); idle
// stays simavr's, its sleep being the chip's. An interrupt raised in the very
// cycle of SLEEP ends the sleep before it began, as one pending before it does.
static void cbp_sleep_entered(avr_t *avr, avr_cycle_count_t how_long) {
    cbp_sleep_modes *m = avr->custom.data;
    if (!(avr->data[CBP_SMCR] & 1)) {
        // SE clear: the chip does not sleep. Awake, and the cycles simavr is
        // about to add for the sleep taken back.
        avr->state = cpu_Running;
        avr->cycle -= how_long;
        return;
    }
    if (!cbp_deep(cbp_sleep_mode(avr))) return;
    avr->run = cbp_sleep_run;
}

// simavr clears WDIE as the watchdog's vector is taken, in every mode; the
// chip only in interrupt and reset mode (WDE set too). Our hook runs before
// simavr's (hooks are called newest first), so WDIE is still set here: put it
// back a cycle later, before the first instruction of the handler.
static avr_cycle_count_t cbp_watchdog_keep_wdie(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    avr_watchdog_t *p = param;
    avr_regbit_set(avr, p->watchdog.enable);
    return 0;
}

static void cbp_watchdog_taken(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    avr_watchdog_t *p = param;
    avr_t *avr = p->io.avr;
    if (value || !avr_regbit_get(avr, p->watchdog.raised)) return;
    if (avr_regbit_get(avr, p->watchdog.enable) && !avr_regbit_get(avr, p->wde))
        avr_cycle_timer_register(avr, 1, cbp_watchdog_keep_wdie, p);
}

static void cbp_sleep_modes_reset(avr_io_t *io) {
    cbp_sleep_modes *m = (cbp_sleep_modes *)io;
    m->wake_at = 0;
    if (io->avr->run == cbp_sleep_run) io->avr->run = m->run;  // a watchdog reset while asleep
    if (m->watchdog) avr_cycle_timer_cancel(io->avr, cbp_watchdog_keep_wdie, m->watchdog);
}

static void cbp_add_source(cbp_sleep_modes *m, cbp_wake_source s) {
    if (s.vector->vector && s.vector->enable.reg && m->count < CBP_WAKE_MAX) m->sources[m->count++] = s;
}

bool cbp_sleep_modes_install(avr_t *avr) {
    cbp_sleep_modes *m = calloc(1, sizeof *m);
    if (!m) return false;
    m->io.kind = "sleep-modes";
    m->io.reset = cbp_sleep_modes_reset;
    // (simavr names the 328P's core "atmega328")
    bool async_edges = strcmp(avr->mmcu, "atmega2560") == 0 || strcmp(avr->mmcu, "atmega1280") == 0
                       || strcmp(avr->mmcu, "atmega32u4") == 0;
    m->async_edge_lines = async_edges ? 4 : 0;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind) continue;
        if (strcmp(io->kind, "extint") == 0) {
            avr_extint_t *p = (avr_extint_t *)io;
            for (int i = 0; i < EXTINT_COUNT; i++)
                cbp_add_source(m, (cbp_wake_source){&p->eint[i].vector, cbp_wake_int, p, i, NULL});
        } else if (strcmp(io->kind, "port") == 0) {
            cbp_add_source(m, (cbp_wake_source){&((avr_ioport_t *)io)->pcint, cbp_wake_always, NULL, 0, NULL});
        } else if (strcmp(io->kind, "watchdog") == 0) {
            m->watchdog = (avr_watchdog_t *)io;
            cbp_add_source(m, (cbp_wake_source){&m->watchdog->watchdog, cbp_wake_always, NULL, 0, NULL});
        } else if (strcmp(io->kind, "timer") == 0 && ((avr_timer_t *)io)->name == '2') {
            avr_timer_t *t = (avr_timer_t *)io;
            cbp_add_source(m, (cbp_wake_source){&t->overflow, cbp_wake_timer2, NULL, 0, t});
            for (int c = 0; c < AVR_TIMER_COMP_COUNT; c++)
                cbp_add_source(m, (cbp_wake_source){&t->comp[c].interrupt, cbp_wake_timer2, NULL, 0, t});
        } else if (strcmp(io->kind, "adc") == 0) {
            cbp_add_source(m, (cbp_wake_source){&((avr_adc_t *)io)->adc, cbp_wake_adc_mode, NULL, 0, NULL});
        } else if (strcmp(io->kind, "eeprom") == 0) {
            cbp_add_source(m, (cbp_wake_source){&((avr_eeprom_t *)io)->ready, cbp_wake_adc_mode, NULL, 0, NULL});
        }
    }
    cbp_register_module(avr, &m->io);
    m->run = avr->run;
    avr->sleep = cbp_sleep_entered;
    avr->custom.data = m;
    if (m->watchdog) avr_irq_register_notify(m->watchdog->watchdog.irq + AVR_INT_IRQ_PENDING, cbp_watchdog_taken, m->watchdog);
    return true;
}
