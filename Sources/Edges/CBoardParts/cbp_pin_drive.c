// Parts outside the chip on its pins: a button, the MPU-6050's INT, the
// lines of a bit-banged I2C bus, an HC-SR04's ECHO drive a pin (strong); a
// resistor to 5 V or GND, or a pin strapped to one, pulls it (weak: a
// pressed button wins over it). While a pin is an input it reads what its
// parts give, whatever the sketch writes to PORT meanwhile, as on a board;
// with none, its own pull-up (PORT bit) or what it last read.
//
// Why: simavr works an input pin's level out again from its PORT bit (the
// pull-up) on every PORT and DDR write (avr_ioport_update_irqs), so a button
// held to GND under INPUT_PULLUP read high as soon as the sketch wrote another
// pin of the same port (an LED on D4 beside a button on D2). The port's
// external input (AVR_IOCTL_IOPORT_SET_EXTERNAL) wins over the pull-up there,
// but it is one mask a port: every part's bits are merged into it here.
//
// And at a reset simavr clears PIN but keeps each pin irq's last value, so a
// pull-up set again after a watchdog reboot was filtered out as no change:
// INPUT_PULLUP read 0, and a released button stayed pressed. This module's
// reset forgets those values and gives each pin its parts' level again.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_ioport.h>

enum { CBP_PORTS = 12 };  // 'A'..'L': the ATmega2560 has the most

typedef struct {
    avr_io_t io;  // first member: simavr frees the module through it
    struct { uint8_t strong_mask, strong_value, weak_mask, weak_value; } ports[CBP_PORTS];
} cbp_pin_drive_module;

avr_ioport_t *cbp_ioport(avr_t *avr, char name) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "port") == 0 && ((avr_ioport_t *)io)->name == name) return (avr_ioport_t *)io;
    }
    return NULL;
}

static cbp_pin_drive_module *cbp_pin_drive_find(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "pin-drive") == 0) return (cbp_pin_drive_module *)io;
    }
    return NULL;
}

/// Gives port `p` its parts' levels on the bits of `changed`: the port's
/// external input, and PIN (with the pin irq, so interrupts follow) for the
/// inputs among them. A bit no part holds any more reads its pull-up if PORT
/// sets one, else keeps what it read (a floating input).
static void cbp_pin_apply(avr_t *avr, cbp_pin_drive_module *m, avr_ioport_t *p, uint8_t changed) {
    int index = p->name - 'A';
    uint8_t strong = m->ports[index].strong_mask, weak = (uint8_t)(m->ports[index].weak_mask & ~strong);
    uint8_t mask = (uint8_t)(strong | weak);
    uint8_t value = (uint8_t)((m->ports[index].strong_value & strong) | (m->ports[index].weak_value & weak));
    avr_ioport_external_t external = {.name = (unsigned long)p->name, .mask = mask, .value = value};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(p->name), &external);
    uint8_t ddr = avr->data[p->r_ddr], port = avr->data[p->r_port];
    for (int bit = 0; bit < 8; bit++) {
        uint8_t one = (uint8_t)(1u << bit);
        if (!(changed & one) || (ddr & one)) continue;
        if (!(mask & one) && !(port & one)) continue;  // floating: it keeps what it read
        bool high = (mask & one) ? (value & one) != 0 : true;
        // PIN set directly too: the pin irq is filtered, and may hold an older value.
        uint8_t *pin = &avr->data[p->r_pin];
        *pin = high ? (uint8_t)(*pin | one) : (uint8_t)(*pin & ~one);
        avr_raise_irq(p->io.irq + bit, high ? 1 : 0);
    }
}

static bool cbp_pin_set(avr_t *avr, char port, uint8_t mask, bool strong, bool set, uint8_t value) {
    cbp_pin_drive_module *m = cbp_pin_drive_find(avr);
    avr_ioport_t *p = cbp_ioport(avr, port);
    if (!m || !p || port < 'A' || port >= 'A' + CBP_PORTS) return false;
    int index = port - 'A';
    uint8_t *bits = strong ? &m->ports[index].strong_mask : &m->ports[index].weak_mask;
    uint8_t *levels = strong ? &m->ports[index].strong_value : &m->ports[index].weak_value;
    *bits = set ? (uint8_t)(*bits | mask) : (uint8_t)(*bits & ~mask);
    *levels = (uint8_t)((*levels & ~mask) | (value & mask));
    cbp_pin_apply(avr, m, p, mask);
    return true;
}

bool cbp_pin_drive(avr_t *avr, char port, uint8_t mask, uint8_t value) { return cbp_pin_set(avr, port, mask, true, true, value); }
bool cbp_pin_release(avr_t *avr, char port, uint8_t mask) { return cbp_pin_set(avr, port, mask, true, false, 0); }
bool cbp_pin_pull(avr_t *avr, char port, uint8_t mask, uint8_t value) { return cbp_pin_set(avr, port, mask, false, true, value); }
bool cbp_pin_unpull(avr_t *avr, char port, uint8_t mask) { return cbp_pin_set(avr, port, mask, false, false, 0); }

// Each pin irq of the ports reads 0, as PIN does after a reset. Not "unused"
// either (IRQ_FLAG_INIT), which would let its first raise through unfiltered:
// simavr's port raises a pin-change interrupt on every notify of an enabled
// pin, so the first pinMode(OUTPUT) of a pin already low raised one.
static void cbp_pin_levels_forget(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "port") != 0) continue;
        avr_ioport_t *p = (avr_ioport_t *)io;
        for (int bit = 0; bit < 8; bit++) {
            p->io.irq[bit].value = 0;
            p->io.irq[bit].flags &= ~IRQ_FLAG_INIT;
        }
    }
}

// After simavr's port reset (registered after the ports): every pin an input
// again, its irq's remembered level forgotten, its parts' level given again.
static void cbp_pin_drive_reset(avr_io_t *io) {
    cbp_pin_drive_module *m = (cbp_pin_drive_module *)io;
    cbp_pin_levels_forget(io->avr);
    for (avr_io_t *other = io->avr->io_port; other; other = other->next) {
        if (!other->kind || strcmp(other->kind, "port") != 0) continue;
        avr_ioport_t *p = (avr_ioport_t *)other;
        if (p->name < 'A' || p->name >= 'A' + CBP_PORTS) continue;
        cbp_pin_apply(io->avr, m, p, 0xFF);
    }
}

bool cbp_pin_drive_install(avr_t *avr) {
    cbp_pin_drive_module *m = calloc(1, sizeof *m);
    if (!m) return false;
    m->io.kind = "pin-drive";
    m->io.reset = cbp_pin_drive_reset;
    avr_register_io(avr, &m->io);
    cbp_pin_levels_forget(avr);
    return true;
}
