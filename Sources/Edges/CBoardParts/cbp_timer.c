// One-shot timers on the core's cycle counter for the Swift part models (an
// MPU-6050 raising its INT pin at sample time). simavr drops every cycle
// timer when the core resets; a part is a separate chip, so ours are armed
// again after a reset (through an io module's reset hook).
#include "CBoardParts.h"

#include <avr_adc.h>
#include <avr_eeprom.h>

#include <stdlib.h>

#include <sim_avr.h>
#include <sim_cycle_timers.h>
#include <sim_io.h>
#include <avr_ioport.h>

struct cbp_timer {
    avr_io_t io;             // first member: registered with the core for its reset hook
    cbp_timer_hook hook;
    void *context;
    bool armed;
    bool reset_seen;         // the core was reset since the hook last asked
    uint64_t cycle;          // when, while armed
};

static avr_cycle_count_t cbp_timer_fire(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)avr;
    (void)when;
    cbp_timer *t = param;
    t->armed = false;
    t->hook(t->context);
    return 0;
}

static void cbp_timer_register(cbp_timer *t) {
    avr_t *avr = t->io.avr;
    uint64_t delay = t->cycle > avr->cycle ? t->cycle - avr->cycle : 1;
    avr_cycle_timer_register(avr, delay, cbp_timer_fire, t);
}

static void cbp_timer_reset(avr_io_t *io) {
    // avr_reset cleared the core's timers and the I/O registers: fire right
    // after the reset so the part can drive its pins again, then as armed.
    cbp_timer *t = (cbp_timer *)io;
    t->reset_seen = true;
    if (!t->armed || t->cycle > io->avr->cycle + 1) t->cycle = io->avr->cycle + 1;
    t->armed = true;
    cbp_timer_register(t);
}

bool cbp_timer_take_reset(cbp_timer *t) {
    bool seen = t->reset_seen;
    t->reset_seen = false;
    return seen;
}

cbp_timer *cbp_timer_create(avr_t *avr, cbp_timer_hook hook, void *context) {
    cbp_timer *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->io.kind = "part-timer";
    t->io.reset = cbp_timer_reset;
    t->hook = hook;
    t->context = context;
    cbp_register_module(avr, &t->io);
    return t;
}

void cbp_timer_at(cbp_timer *t, uint64_t cycle) {
    avr_cycle_timer_cancel(t->io.avr, cbp_timer_fire, t);
    t->armed = true;
    t->cycle = cycle;
    cbp_timer_register(t);
}

void cbp_timer_cancel(cbp_timer *t) {
    avr_cycle_timer_cancel(t->io.avr, cbp_timer_fire, t);
    t->armed = false;
}

void cbp_timer_destroy(cbp_timer *t) {
    if (!t) return;
    avr_t *avr = t->io.avr;
    avr_cycle_timer_cancel(avr, cbp_timer_fire, t);
    // Unlink from the core's io modules (simavr has no call for it).
    for (avr_io_t **p = &avr->io_port; *p; p = &(*p)->next) {
        if (*p == &t->io) {
            *p = t->io.next;
            break;
        }
    }
    free(t);
}

uint32_t cbp_irq_value(const avr_irq_t *irq) {
    return irq ? irq->value : 0;
}

void cbp_avr_set_supply(avr_t *avr, uint32_t millivolts) {
    // simavr converts against these; unset (0), it took 3.3 V for AVCC, so a
    // 5 V board's readVcc (the 1.1 V bandgap against AVCC) said 3300 mV.
    avr->vcc = avr->avcc = avr->aref = millivolts;
    // The internal temperature sensor at 25 °C: 314 mV (ATmega328P datasheet, "Temperature Measurement").
    avr_irq_t *temperature = avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_TEMP);
    if (temperature) avr_raise_irq(temperature, 314);
}

avr_irq_t *cbp_ioport_pin_irq(avr_t *avr, char port, int bit) {
    return avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), bit);
}

uint32_t cbp_eeprom_size(avr_t *avr) { return avr->e2end ? (uint32_t)avr->e2end + 1 : 0; }

void cbp_eeprom_get(avr_t *avr, uint8_t *dest, uint32_t size) {
    // simavr's EEPROM ioctl reports -1 even when it copied: the size is checked here instead.
    if (size == 0 || size > cbp_eeprom_size(avr)) return;
    avr_eeprom_desc_t desc = {.ee = dest, .offset = 0, .size = size};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &desc);
}

void cbp_eeprom_set(avr_t *avr, const uint8_t *source, uint32_t size) {
    if (size == 0 || size > cbp_eeprom_size(avr)) return;
    avr_eeprom_desc_t desc = {.ee = (uint8_t *)source, .offset = 0, .size = size};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &desc);
}
