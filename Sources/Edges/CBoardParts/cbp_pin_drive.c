// Parts outside the chip on its pins: a button, the MPU-6050's INT, the
// lines of a bit-banged I2C bus, an HC-SR04's ECHO drive a pin (strong); a
// resistor to 5 V or GND, or a pin strapped to one, pulls it (weak: a
// pressed button wins over it). A wire to another of the chip's pins
// (cbp_jumper.c) carries that pin's level between the two, or below a pull
// when what it carries is a pull. While a pin is an input it reads what its
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

// What holds a pin, strongest first: a part driving it, a wire to another
// pin that is driven (cbp_jumper.c), a resistor's pull, a wire to a pulled pin.
enum { CBP_LAYER_PART, CBP_LAYER_WIRE, CBP_LAYER_PULL, CBP_LAYER_WIRE_PULL, CBP_LAYERS };

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    struct { uint8_t mask, value; } ports[CBP_PORTS][CBP_LAYERS];
    void (*parts_changed)(avr_t *avr, void *param);  // cbp_jumper's, when a part's drive or pull changed
    void *parts_changed_param;
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
    uint8_t mask = 0, value = 0;
    for (int layer = 0; layer < CBP_LAYERS; layer++) {
        uint8_t mine = (uint8_t)(m->ports[index][layer].mask & ~mask);  // bits a stronger layer has not taken
        value |= (uint8_t)(m->ports[index][layer].value & mine);
        mask |= mine;
    }
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

// The pins in `mask` of port `index` held by `layer` (`set`) at `value`'s bits, or let go.
static void cbp_layer_set(cbp_pin_drive_module *m, int index, int layer, uint8_t mask, bool set, uint8_t value) {
    uint8_t *bits = &m->ports[index][layer].mask, *levels = &m->ports[index][layer].value;
    *bits = set ? (uint8_t)(*bits | mask) : (uint8_t)(*bits & ~mask);
    *levels = (uint8_t)((*levels & ~mask) | (value & mask));
}

static bool cbp_pin_set(avr_t *avr, char port, uint8_t mask, int layer, bool set, uint8_t value) {
    cbp_pin_drive_module *m = cbp_pin_drive_find(avr);
    avr_ioport_t *p = cbp_ioport(avr, port);
    if (!m || !p || port < 'A' || port >= 'A' + CBP_PORTS) return false;
    cbp_layer_set(m, port - 'A', layer, mask, set, value);
    cbp_pin_apply(avr, m, p, mask);
    bool parts = layer == CBP_LAYER_PART || layer == CBP_LAYER_PULL;
    if (parts && m->parts_changed) m->parts_changed(avr, m->parts_changed_param);
    return true;
}

bool cbp_pin_drive(avr_t *avr, char port, uint8_t mask, uint8_t value) { return cbp_pin_set(avr, port, mask, CBP_LAYER_PART, true, value); }
bool cbp_pin_release(avr_t *avr, char port, uint8_t mask) { return cbp_pin_set(avr, port, mask, CBP_LAYER_PART, false, 0); }
bool cbp_pin_pull(avr_t *avr, char port, uint8_t mask, uint8_t value) { return cbp_pin_set(avr, port, mask, CBP_LAYER_PULL, true, value); }

// Both wire layers at once: a change of strength applied in two steps could
// show the pin another level between them, an edge an interrupt would see.
bool cbp_pin_wire(avr_t *avr, char port, uint8_t mask, int strength, uint8_t value) {
    cbp_pin_drive_module *m = cbp_pin_drive_find(avr);
    avr_ioport_t *p = cbp_ioport(avr, port);
    if (!m || !p || port < 'A' || port >= 'A' + CBP_PORTS) return false;
    cbp_layer_set(m, port - 'A', CBP_LAYER_WIRE, mask, strength == 2, value);
    cbp_layer_set(m, port - 'A', CBP_LAYER_WIRE_PULL, mask, strength == 1, value);
    cbp_pin_apply(avr, m, p, mask);
    return true;
}

int cbp_pin_parts(avr_t *avr, char port, uint8_t mask, bool *high) {
    cbp_pin_drive_module *m = cbp_pin_drive_find(avr);
    if (!m || port < 'A' || port >= 'A' + CBP_PORTS) return 0;
    int index = port - 'A';
    if (m->ports[index][CBP_LAYER_PART].mask & mask) {
        *high = m->ports[index][CBP_LAYER_PART].value & mask;
        return 2;
    }
    if (m->ports[index][CBP_LAYER_PULL].mask & mask) {
        *high = m->ports[index][CBP_LAYER_PULL].value & mask;
        return 1;
    }
    return 0;
}

void cbp_pin_drive_on_parts_changed(avr_t *avr, void (*changed)(avr_t *avr, void *param), void *param) {
    cbp_pin_drive_module *m = cbp_pin_drive_find(avr);
    if (!m) return;
    m->parts_changed = changed;
    m->parts_changed_param = param;
}

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
    cbp_register_module(avr, &m->io);
    cbp_pin_levels_forget(avr);
    return true;
}
