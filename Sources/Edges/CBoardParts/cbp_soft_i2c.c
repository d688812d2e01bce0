// The I2C bus heard on its wires: a master that toggles SDA and SCL itself
// (U8g2's *_SW_I2C constructors, SoftwareWire, SoftI2CMaster) reaches the
// same slaves as the TWI (cbp_twi.c), in the same messages.
//
// Why: the TWI model only hears TWDR/TWCR, so a sketch that bit-bangs the bus
// pins left the display dark and the sensor silent, where a board (and Wokwi)
// answers; U8g2's examples offer their SW_I2C constructors on SCL and SDA.
//
// The lines are open drain with the modules' pull-ups, as on a breakout:
//   - a line is low while the AVR drives it low (DDR 1, PORT 0) or a slave
//     holds it (SDA only: an ACK, a bit of a byte read); else high. An AVR
//     that drives high (DDR 1, PORT 1, U8g2's fast path) is high unless a
//     slave pulls: a push-pull master reads its own level back;
//   - what the AVR reads from a released pin is the line, given to simavr's
//     port as its external input (cbp_pin_drive.c), so PIN
//     reads the pull-up, or the slave's low;
//   - START: SDA falls while SCL is high; STOP: SDA rises while SCL is high;
//     a bit is sampled as SCL rises; a slave changes SDA after SCL falls (it
//     acknowledges the eighth bit's fall and lets go at the ninth's).
// The edges come from the port's register writes (simavr raises IOPORT_IRQ_REG_PORT
// after PORT changes, IOPORT_IRQ_DIRECTION_ALL before DDR does, with the new
// value). While the TWI is enabled (TWEN) it owns the pins, as on the chip:
// edges are ignored. A bit-banged master has no bus time of its own here:
// the sketch's own delays make it.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_ioport.h>
#include <avr_twi.h>

typedef enum {
    SOFT_IDLE,     // no transaction, or one the slaves NACKed: waits for START
    SOFT_ADDRESS,  // after START: the SLA+R/W byte comes in
    SOFT_WRITE,    // master transmitter: data bytes come in
    SOFT_READ,     // master receiver: the slave sends bytes
} cbp_soft_phase;

struct cbp_soft_i2c {
    avr_io_t io;             // first member: cbp_avr_destroy frees the module through it
    avr_ioport_t *port;      // the port both lines are on
    uint8_t sda_mask, scl_mask;
    bool sda, scl;           // the lines' levels, as last worked out
    bool slave_low;          // a slave holds SDA low
    bool master_low;         // the AVR drives SDA low
    cbp_soft_phase phase;
    uint8_t clocks;          // SCL rises since the byte began (9: its ACK slot)
    uint8_t byte;            // coming in (ADDRESS, WRITE) or going out (READ)
    uint8_t address;         // the transaction's SLA+R/W byte
    bool in_transaction;     // a START reached the slaves and no STOP yet
    bool master_ack;         // READ: the master acknowledged the byte
    bool scl_asked;          // the level the AVR's port asks of SCL (also while the TWI owns it)
    uint32_t blocked_edges;  // SCL edges the port asked for while the TWI owned the pin
};

/// One message to the slaves on the TWI's bus irqs; whether they acknowledged.
static bool cbp_soft_i2c_send(cbp_soft_i2c *s, uint8_t conditions, uint8_t data, uint8_t *read) {
    cbp_bus_answer answer = cbp_bus_send(s->io.avr, conditions, s->address, data);
    if (read) *read = answer.data;
    return answer.ack;
}

/// Tells the port what a released pin reads: the pull-up, or a slave's low on SDA.
static void cbp_soft_i2c_publish(cbp_soft_i2c *s) {
    uint8_t value = (uint8_t)(s->scl_mask | (s->slave_low ? 0 : s->sda_mask));
    cbp_pin_drive(s->io.avr, s->port->name, (uint8_t)(s->sda_mask | s->scl_mask), value);
}

static void cbp_soft_i2c_set_slave_low(cbp_soft_i2c *s, bool low) {
    if (s->slave_low == low) return;
    s->slave_low = low;
    s->sda = !low && !s->master_low;  // SCL is low (or a condition is being read): no edge
    cbp_soft_i2c_publish(s);
}

/// SCL fell: the slave's turn to set SDA.
static void cbp_soft_i2c_scl_fell(cbp_soft_i2c *s) {
    if (s->phase == SOFT_IDLE) return;
    if (s->clocks == 8 && s->phase != SOFT_READ) {
        // The eighth bit is in: the slaves answer it, the ACK held for the ninth clock.
        bool ack;
        if (s->phase == SOFT_ADDRESS) {
            s->address = s->byte;
            ack = cbp_soft_i2c_send(s, TWI_COND_START | TWI_COND_ADDR, 0, NULL);
            s->in_transaction = true;
        } else {
            ack = cbp_soft_i2c_send(s, TWI_COND_WRITE, s->byte, NULL);
        }
        s->master_ack = ack;  // here: whether the slave acknowledged
        cbp_soft_i2c_set_slave_low(s, ack);
    } else if (s->clocks == 8) {
        cbp_soft_i2c_set_slave_low(s, false);  // the master's ACK slot
    } else if (s->clocks == 9) {
        // The ninth clock is over: the next byte.
        bool acked = s->master_ack;
        s->clocks = 0;
        s->byte = 0;
        if (s->phase == SOFT_ADDRESS) s->phase = acked ? ((s->address & 1) ? SOFT_READ : SOFT_WRITE) : SOFT_IDLE;
        else if (s->phase == SOFT_READ && !acked) s->phase = SOFT_IDLE;  // NACK: the last byte; STOP comes
        if (s->phase == SOFT_READ) {
            cbp_soft_i2c_send(s, TWI_COND_READ | TWI_COND_ACK, 0, &s->byte);
            cbp_soft_i2c_set_slave_low(s, !(s->byte & 0x80));
        } else {
            cbp_soft_i2c_set_slave_low(s, false);
        }
    } else if (s->phase == SOFT_READ && s->clocks >= 1 && s->clocks <= 7) {
        cbp_soft_i2c_set_slave_low(s, !((s->byte << s->clocks) & 0x80));
    }
}

/// SCL rose: the bit on SDA counts.
static void cbp_soft_i2c_scl_rose(cbp_soft_i2c *s) {
    if (s->phase == SOFT_IDLE || s->clocks >= 9) return;
    s->clocks++;
    if (s->clocks <= 8 && s->phase != SOFT_READ) s->byte = (uint8_t)(s->byte << 1 | (s->sda ? 1 : 0));
    if (s->clocks == 9 && s->phase == SOFT_READ) s->master_ack = !s->sda;
}

static void cbp_soft_i2c_stop(cbp_soft_i2c *s) {
    if (s->in_transaction) cbp_soft_i2c_send(s, TWI_COND_STOP, 0, NULL);
    s->in_transaction = false;
    s->phase = SOFT_IDLE;
    cbp_soft_i2c_set_slave_low(s, false);
}

/// The port's PORT or DDR changed: work the lines out again and act on their edges.
static void cbp_soft_i2c_lines(cbp_soft_i2c *s, uint8_t port, uint8_t ddr) {
    avr_t *avr = s->io.avr;
    bool scl = !((ddr & s->scl_mask) && !(port & s->scl_mask));
    bool scl_edge = scl != s->scl_asked;
    s->scl_asked = scl;
    if (cbp_twi_enabled(avr)) {
        // The TWI owns the pins (its own messages reach the slaves); a sketch
        // toggling SCL meanwhile reaches nothing, and is told so.
        if (scl_edge) s->blocked_edges++;
        s->phase = SOFT_IDLE;
        s->in_transaction = false;
        cbp_soft_i2c_set_slave_low(s, false);
        s->sda = s->scl = true;
        return;
    }
    s->master_low = (ddr & s->sda_mask) && !(port & s->sda_mask);
    bool sda = !s->slave_low && !s->master_low;
    bool was_scl = s->scl, was_sda = s->sda;
    s->scl = scl;
    s->sda = sda;
    if (was_scl && scl && was_sda != sda) {
        if (!sda) {  // START (or a repeated one)
            s->phase = SOFT_ADDRESS;
            s->clocks = 0;
            s->byte = 0;
            cbp_soft_i2c_set_slave_low(s, false);
        } else {     // STOP
            cbp_soft_i2c_stop(s);
        }
        return;
    }
    if (!was_scl && scl) cbp_soft_i2c_scl_rose(s);
    if (was_scl && !scl) cbp_soft_i2c_scl_fell(s);
}

static void cbp_soft_i2c_port_written(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    cbp_soft_i2c *s = param;
    cbp_soft_i2c_lines(s, (uint8_t)value, s->io.avr->data[s->port->r_ddr]);
}

static void cbp_soft_i2c_ddr_written(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    cbp_soft_i2c *s = param;
    // Raised before DDR is stored: the new direction is `value`.
    cbp_soft_i2c_lines(s, s->io.avr->data[s->port->r_port], (uint8_t)value);
}

static void cbp_soft_i2c_reset(avr_io_t *io) {
    cbp_soft_i2c *s = (cbp_soft_i2c *)io;
    s->phase = SOFT_IDLE;
    s->in_transaction = false;
    s->slave_low = false;
    s->master_low = false;
    s->sda = s->scl = s->scl_asked = true;
    s->clocks = 0;
    cbp_soft_i2c_publish(s);
}

cbp_soft_i2c *cbp_soft_i2c_install(avr_t *avr, char port, uint8_t sda_bit, uint8_t scl_bit) {
    avr_ioport_t *p = cbp_ioport(avr, port);
    if (!p || sda_bit > 7 || scl_bit > 7 || sda_bit == scl_bit) return NULL;
    cbp_soft_i2c *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->io.kind = "soft-i2c";
    s->io.reset = cbp_soft_i2c_reset;
    cbp_register_module(avr, &s->io);
    s->port = p;
    s->sda_mask = (uint8_t)(1u << sda_bit);
    s->scl_mask = (uint8_t)(1u << scl_bit);
    avr_irq_register_notify(p->io.irq + IOPORT_IRQ_REG_PORT, cbp_soft_i2c_port_written, s);
    avr_irq_register_notify(p->io.irq + IOPORT_IRQ_DIRECTION_ALL, cbp_soft_i2c_ddr_written, s);
    cbp_soft_i2c_reset(&s->io);
    return s;
}

cbp_soft_i2c *cbp_soft_i2c_find(avr_t *avr) {
    avr_io_t *io = avr->io_port;
    while (io && (!io->kind || strcmp(io->kind, "soft-i2c") != 0)) io = io->next;
    return (cbp_soft_i2c *)io;
}

uint32_t cbp_soft_i2c_blocked_edges(avr_t *avr) {
    cbp_soft_i2c *s = cbp_soft_i2c_find(avr);
    return s ? s->blocked_edges : 0;
}
