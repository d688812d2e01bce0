// Parts outside the chip that drive its pins: a button to GND or 5 V, the
// MPU-6050's INT, the lines of a bit-banged I2C bus. While a pin is an input
// it reads what its part drives, whatever the sketch writes to PORT meanwhile,
// as on a board.
//
// Why: simavr works an input pin's level out again from its PORT bit (the
// pull-up) on every PORT and DDR write (avr_ioport_update_irqs), so a button
// held to GND under INPUT_PULLUP read high as soon as the sketch wrote another
// pin of the same port (an LED on D4 beside a button on D2). The port's
// external input (AVR_IOCTL_IOPORT_SET_EXTERNAL) wins over the pull-up there,
// but it is one mask a port: each part's bits are merged into it here.
#include "CBoardParts.h"

#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_ioport.h>

avr_ioport_t *cbp_ioport(avr_t *avr, char name) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "port") == 0 && ((avr_ioport_t *)io)->name == name) return (avr_ioport_t *)io;
    }
    return NULL;
}

bool cbp_pin_drive(avr_t *avr, char port, uint8_t mask, uint8_t value) {
    avr_ioport_t *p = cbp_ioport(avr, port);
    if (!p) return false;
    avr_ioport_external_t external = {
        .name = (unsigned long)port,
        .mask = (uint8_t)(p->external.pull_mask | mask),
        .value = (uint8_t)((p->external.pull_value & ~mask) | (value & mask)),
    };
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(port), &external);
    // An input reads it now, not at the port's next write (PIN set directly
    // too: the pin irq is filtered, and may hold an older value). The irq
    // carries the edge to pin-change and external interrupts.
    uint8_t ddr = avr->data[p->r_ddr];
    for (int bit = 0; bit < 8; bit++) {
        uint8_t one = (uint8_t)(1u << bit);
        if (!(mask & one) || (ddr & one)) continue;
        uint8_t *pin = &avr->data[p->r_pin];
        *pin = (value & one) ? (uint8_t)(*pin | one) : (uint8_t)(*pin & ~one);
        avr_raise_irq(p->io.irq + bit, (value & one) ? 1 : 0);
    }
    return true;
}
