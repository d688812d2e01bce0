// The ATmega328P's TWI as a bus master, after the datasheet (section 21,
// "2-wire Serial Interface"), replacing simavr 1.6's avr_twi on TWI0.
//
// Why our own: simavr 1.6 never clears TWINT when firmware writes 1 to it
// (polling drivers see every operation finish at once), reports an ACKed
// SLA+W as 0x28 instead of 0x18 (and a NACKed one as 0x30 instead of 0x20),
// and times every byte as 9 us whatever TWBR says. Here:
//   - writing TWCR with TWINT = 1 clears TWINT and starts the next bus action;
//     TWINT is set again when the action is over, after the bus time it takes;
//   - TWSR carries the master transmitter/receiver status codes;
//   - one SCL period is 16 + 2 * TWBR * 4^TWPS CPU cycles; a START or STOP
//     takes one period, an address or data byte nine (eight bits and the ACK);
//   - the TWI interrupt is level-triggered like the hardware: pending while
//     TWINT and TWIE are both set, again after RETI if the ISR left them so;
//   - TWDR written while TWINT is low sets TWWC and keeps the old value;
//   - TWSTA written while our STOP is still on the bus is sent once the bus
//     is free (the TWI waits for a free bus: datasheet 22.9.2, TWSTA).
// Slave mode (TWAR) is not modelled: the AVR is the only master on our boards.
//
// Slaves hear the bus on our own irq pair, in simavr's message format
// (avr_twi_msg_irq_t), so simavr-style parts plug in unchanged: START with the
// address byte when SLA+R/W goes out, WRITE with each byte written, READ for
// each byte the master clocks in, STOP. A slave answers synchronously, inside
// its notify hook, on the input irq: ACK with data bit 0 set, or READ with the
// byte. No answer reads as NACK (and 0xFF, the idle bus).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_cycle_timers.h>
#include <sim_interrupts.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_twi.h>

// ATmega328P TWI registers (data-space addresses) and TWCR bits.
enum {
    R_TWBR = 0xB8, R_TWSR = 0xB9, R_TWAR = 0xBA, R_TWDR = 0xBB, R_TWCR = 0xBC, R_TWAMR = 0xBD,
    TWI_VECTOR_328P = 24,
};
enum { B_TWIE = 0, B_TWEN = 2, B_TWWC = 3, B_TWSTO = 4, B_TWSTA = 5, B_TWEA = 6, B_TWINT = 7 };

// Master status codes (datasheet tables 21-3 and 21-4).
enum {
    ST_START = 0x08, ST_REP_START = 0x10,
    ST_MT_SLA_ACK = 0x18, ST_MT_SLA_NACK = 0x20, ST_MT_DATA_ACK = 0x28, ST_MT_DATA_NACK = 0x30,
    ST_MR_SLA_ACK = 0x40, ST_MR_SLA_NACK = 0x48, ST_MR_DATA_ACK = 0x50, ST_MR_DATA_NACK = 0x58,
    ST_NONE = 0xF8,
};

typedef enum {
    PHASE_IDLE,        // bus free (or released after STOP)
    PHASE_STARTED,     // START sent: TWDR goes out as SLA+R/W next
    PHASE_TRANSMIT,    // master transmitter: TWDR goes out as data
    PHASE_RECEIVE,     // master receiver: the next action clocks a byte in
} cbp_twi_phase;

typedef enum { ACT_NONE, ACT_START, ACT_ADDRESS, ACT_WRITE, ACT_READ, ACT_STOP } cbp_twi_action;

struct cbp_twi {
    avr_io_t io;                 // first member: cbp_avr_destroy frees the module through it
    avr_int_vector_t vector;
    cbp_twi_phase phase;
    cbp_twi_action action;       // in flight, finishing at the timer
    uint8_t status_after;        // TWSR when the action finishes
    uint8_t data_after;          // TWDR when a READ finishes
    bool start_after_stop;       // TWSTA and TWSTO together, or TWSTA asked while a STOP is
                                 // still on the bus: START once the bus is free
    bool owns_bus;               // between our START and STOP
    uint8_t address;             // the SLA+R/W byte of the transaction
    // The slaves' answer to the message being sent.
    bool answer_ack;
    uint8_t answer_data;
    uint64_t bus_cycles;         // total cycles the bus was busy (for figures)
    uint8_t addressed[16];       // 7-bit addresses the sketch called, one bit each,
    uint8_t acknowledged[16];    // and those a part answered (cbp_twi_addressed)
};

static const char *cbp_twi_irq_names[2] = { "8<twi.bus.in", "32>twi.bus.out" };

static inline uint8_t twcr(cbp_twi *t) { return t->io.avr->data[R_TWCR]; }
static inline bool twcr_bit(cbp_twi *t, int bit) { return (twcr(t) >> bit) & 1; }
static inline void twcr_set(cbp_twi *t, int bit, bool on) {
    uint8_t *r = &t->io.avr->data[R_TWCR];
    *r = on ? (uint8_t)(*r | (1 << bit)) : (uint8_t)(*r & ~(1 << bit));
}

/// One SCL period in CPU cycles: 16 + 2 * TWBR * 4^TWPS.
static uint32_t cbp_twi_scl_cycles(cbp_twi *t) {
    avr_t *avr = t->io.avr;
    uint32_t prescaler = 1u << (2 * (avr->data[R_TWSR] & 3));
    return 16u + 2u * avr->data[R_TWBR] * prescaler;
}

static void cbp_twi_set_status(cbp_twi *t, uint8_t status) {
    uint8_t *r = &t->io.avr->data[R_TWSR];
    *r = (uint8_t)((status & 0xF8) | (*r & 3));
}

/// Makes the interrupt pending exactly while TWINT and TWIE are set.
static void cbp_twi_update_interrupt(cbp_twi *t) {
    avr_t *avr = t->io.avr;
    bool level = twcr_bit(t, B_TWINT) && twcr_bit(t, B_TWIE);
    if (level && !t->vector.pending) {
        avr_raise_interrupt(avr, &t->vector);
    } else if (!level && t->vector.pending) {
        avr_clear_interrupt(avr, &t->vector);  // raise_sticky: leaves TWINT alone
    }
}

/// Sends one message to the slaves and collects their synchronous answer.
static void cbp_twi_send(cbp_twi *t, uint8_t conditions, uint8_t data) {
    t->answer_ack = false;
    t->answer_data = 0xFF;
    avr_raise_irq(t->io.irq + CBP_TWI_OUTPUT, avr_twi_irq_msg(conditions, t->address, data));
}

static void cbp_twi_bus_input(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    cbp_twi *t = param;
    cbp_twi_message m = cbp_twi_decode(value);
    if (m.conditions & TWI_COND_ACK) t->answer_ack = (m.data & 1) != 0;
    if (m.conditions & TWI_COND_READ) t->answer_data = m.data;
}

static avr_cycle_count_t cbp_twi_finish(avr_t *avr, avr_cycle_count_t when, void *param);

static void cbp_twi_schedule(cbp_twi *t, cbp_twi_action action, uint32_t periods, uint8_t status) {
    uint32_t cycles = periods * cbp_twi_scl_cycles(t);
    t->action = action;
    t->status_after = status;
    t->bus_cycles += cycles;
    avr_cycle_timer_register(t->io.avr, cycles, cbp_twi_finish, t);
}

static void cbp_twi_begin_start(cbp_twi *t) {
    uint8_t status = t->owns_bus ? ST_REP_START : ST_START;
    t->owns_bus = true;
    cbp_twi_schedule(t, ACT_START, 1, status);
}

static void cbp_twi_begin_stop(cbp_twi *t, bool then_start) {
    if (t->owns_bus) cbp_twi_send(t, TWI_COND_STOP, 0);
    t->owns_bus = false;
    t->phase = PHASE_IDLE;
    t->start_after_stop = then_start;
    cbp_twi_schedule(t, ACT_STOP, 1, ST_NONE);
}

/// TWINT was cleared by software: start what TWCR asks for.
static void cbp_twi_begin(cbp_twi *t) {
    avr_t *avr = t->io.avr;
    bool sta = twcr_bit(t, B_TWSTA), sto = twcr_bit(t, B_TWSTO);
    if (sto) {
        cbp_twi_begin_stop(t, sta);
        return;
    }
    if (sta) {
        cbp_twi_begin_start(t);
        return;
    }
    uint8_t byte = avr->data[R_TWDR];
    switch (t->phase) {
    case PHASE_STARTED: {
        t->address = byte;
        cbp_twi_send(t, TWI_COND_START | TWI_COND_ADDR, 0);
        uint8_t seven = byte >> 1, bit = (uint8_t)(1u << (seven & 7));
        t->addressed[seven >> 3] |= bit;
        if (t->answer_ack) t->acknowledged[seven >> 3] |= bit;
        bool read = byte & 1;
        uint8_t status = read ? (t->answer_ack ? ST_MR_SLA_ACK : ST_MR_SLA_NACK)
                              : (t->answer_ack ? ST_MT_SLA_ACK : ST_MT_SLA_NACK);
        t->phase = read ? PHASE_RECEIVE : PHASE_TRANSMIT;
        cbp_twi_schedule(t, ACT_ADDRESS, 9, status);
        break;
    }
    case PHASE_TRANSMIT:
        cbp_twi_send(t, TWI_COND_WRITE, byte);
        cbp_twi_schedule(t, ACT_WRITE, 9, t->answer_ack ? ST_MT_DATA_ACK : ST_MT_DATA_NACK);
        break;
    case PHASE_RECEIVE: {
        bool ack = twcr_bit(t, B_TWEA);
        cbp_twi_send(t, TWI_COND_READ | (ack ? TWI_COND_ACK : 0), 0);
        t->data_after = t->answer_data;
        cbp_twi_schedule(t, ACT_READ, 9, ack ? ST_MR_DATA_ACK : ST_MR_DATA_NACK);
        break;
    }
    case PHASE_IDLE:
        break;  // nothing to do without a START (slave mode is not modelled)
    }
}

static avr_cycle_count_t cbp_twi_finish(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    cbp_twi *t = param;
    cbp_twi_action action = t->action;
    t->action = ACT_NONE;
    switch (action) {
    case ACT_STOP:
        twcr_set(t, B_TWSTO, false);  // no TWINT after a STOP
        cbp_twi_set_status(t, ST_NONE);
        // A START asked for meanwhile goes out only if TWSTA is still set.
        if (t->start_after_stop) {
            t->start_after_stop = false;
            if (twcr_bit(t, B_TWSTA)) cbp_twi_begin_start(t);
        }
        return 0;
    case ACT_START:
        t->phase = PHASE_STARTED;
        break;
    case ACT_READ:
        avr->data[R_TWDR] = t->data_after;
        break;
    default:
        break;
    }
    cbp_twi_set_status(t, t->status_after);
    avr_raise_interrupt(avr, &t->vector);  // sets TWINT; pending only if TWIE
    cbp_twi_update_interrupt(t);
    return 0;
}

static void cbp_twi_abort(cbp_twi *t) {
    avr_cycle_timer_cancel(t->io.avr, cbp_twi_finish, t);
    if (t->owns_bus) cbp_twi_send(t, TWI_COND_STOP, 0);
    t->owns_bus = false;
    t->phase = PHASE_IDLE;
    t->action = ACT_NONE;
    t->start_after_stop = false;
}

static void cbp_twi_write_twcr(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)addr;
    cbp_twi *t = param;
    bool was_enabled = twcr_bit(t, B_TWEN);
    bool clear_twint = (v >> B_TWINT) & 1;
    // TWINT and TWWC are flags: software writes only clear TWINT.
    uint8_t keep = (uint8_t)(twcr(t) & ((1 << B_TWINT) | (1 << B_TWWC)));
    avr->data[R_TWCR] = (uint8_t)((v & ~((1 << B_TWINT) | (1 << B_TWWC))) | keep);
    if (!twcr_bit(t, B_TWEN)) {
        // Switched off: every transmission ends, whatever was going on.
        if (was_enabled) cbp_twi_abort(t);
        if (clear_twint) twcr_set(t, B_TWINT, false);
        cbp_twi_update_interrupt(t);
        return;
    }
    if (clear_twint && twcr_bit(t, B_TWINT)) {
        twcr_set(t, B_TWINT, false);
        if (t->action == ACT_NONE) cbp_twi_begin(t);
    } else if (clear_twint && t->action == ACT_STOP && twcr_bit(t, B_TWSTA)) {
        // START while our STOP is still on the bus: the TWI waits for the bus
        // to be free, then sends it (datasheet 22.9.2, TWSTA). Drivers that
        // start the next transfer right after writing TWSTO rely on this.
        t->start_after_stop = true;
    } else if (clear_twint && t->action == ACT_NONE && t->phase == PHASE_IDLE
               && (twcr_bit(t, B_TWSTA) || twcr_bit(t, B_TWSTO))) {
        // From idle (TWINT low since reset or the last STOP): START or STOP.
        cbp_twi_begin(t);
    }
    cbp_twi_update_interrupt(t);
}

static void cbp_twi_write_twdr(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)addr;
    cbp_twi *t = param;
    if (twcr_bit(t, B_TWINT)) {
        avr->data[R_TWDR] = v;
        twcr_set(t, B_TWWC, false);
    } else {
        twcr_set(t, B_TWWC, true);  // write collision: TWDR keeps its value
    }
}

static void cbp_twi_write_twsr(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)addr;
    (void)param;
    avr->data[R_TWSR] = (uint8_t)((avr->data[R_TWSR] & 0xF8) | (v & 3));  // only TWPS is writable
}

static void cbp_twi_write_plain(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    (void)param;
    avr->data[addr] = v;
}

/// After RETI: a handler that left TWINT and TWIE set runs again (level interrupt).
static void cbp_twi_vector_running(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    if (value == 0) cbp_twi_update_interrupt(param);
}

static void cbp_twi_reset(avr_io_t *io) {
    cbp_twi *t = (cbp_twi *)io;
    avr_t *avr = io->avr;
    // avr_reset already cancelled the cycle timers and cleared pending vectors.
    t->phase = PHASE_IDLE;
    t->action = ACT_NONE;
    t->owns_bus = false;
    t->start_after_stop = false;
    avr->data[R_TWBR] = 0x00;
    avr->data[R_TWSR] = ST_NONE;
    avr->data[R_TWAR] = 0xFE;
    avr->data[R_TWDR] = 0xFF;
    avr->data[R_TWCR] = 0x00;
    avr->data[R_TWAMR] = 0x00;
}

#define CBP_IOCTL_TWI_BUS AVR_IOCTL_DEF('t', 'w', 'b', '0')

// The TWI vector of this core (24 on the ATmega328P, 39 on the ATmega2560: the
// registers sit at the same addresses on both), read from simavr's own avr_twi.
static uint8_t cbp_twi_core_vector(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "twi") == 0) return ((avr_twi_t *)io)->twi.vector;
    }
    return TWI_VECTOR_328P;
}

cbp_twi *cbp_twi_install(avr_t *avr) {
    cbp_twi *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->io.kind = "twi-bus";
    t->io.irq_names = cbp_twi_irq_names;
    t->io.reset = cbp_twi_reset;
    cbp_register_module(avr, &t->io);
    avr_io_setirqs(&t->io, CBP_IOCTL_TWI_BUS, 2, NULL);
    avr_irq_register_notify(t->io.irq + CBP_TWI_INPUT, cbp_twi_bus_input, t);

    t->vector.vector = cbp_twi_core_vector(avr);
    t->vector.enable = (avr_regbit_t)AVR_IO_REGBIT(R_TWCR, B_TWIE);
    t->vector.raised = (avr_regbit_t)AVR_IO_REGBIT(R_TWCR, B_TWINT);
    t->vector.raise_sticky = 1;  // TWINT stays set while the ISR runs
    avr_register_vector(avr, &t->vector);
    avr_irq_register_notify(t->vector.irq + AVR_INT_IRQ_RUNNING, cbp_twi_vector_running, t);

    // Take the registers over from simavr's avr_twi (its callbacks are
    // replaced, not chained; its own irqs simply go quiet).
    struct { uint16_t reg; avr_io_write_t write; } writes[] = {
        { R_TWCR, cbp_twi_write_twcr }, { R_TWDR, cbp_twi_write_twdr }, { R_TWSR, cbp_twi_write_twsr },
        { R_TWBR, cbp_twi_write_plain }, { R_TWAR, cbp_twi_write_plain }, { R_TWAMR, cbp_twi_write_plain },
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        avr_io_addr_t a = AVR_DATA_TO_IO(writes[i].reg);
        avr->io[a].w.c = writes[i].write;
        avr->io[a].w.param = t;
        avr->io[a].r.c = NULL;
        avr->io[a].r.param = NULL;
    }
    cbp_twi_reset(&t->io);
    return t;
}

avr_irq_t *cbp_twi_bus_irq(avr_t *avr, int which) {
    return avr_io_getirq(avr, CBP_IOCTL_TWI_BUS, which);
}

cbp_twi *cbp_twi_find(avr_t *avr) {
    avr_io_t *port = avr->io_port;
    while (port && (!port->kind || strcmp(port->kind, "twi-bus") != 0)) port = port->next;
    return (cbp_twi *)port;
}

uint64_t cbp_twi_bus_cycles(avr_t *avr) {
    cbp_twi *t = cbp_twi_find(avr);
    return t ? t->bus_cycles : 0;
}

uint16_t cbp_twi_bit_rate(avr_t *avr) {
    return (uint16_t)(avr->data[R_TWBR] | ((avr->data[R_TWSR] & 3) << 8));
}

bool cbp_twi_enabled(avr_t *avr) {
    return (avr->data[R_TWCR] >> B_TWEN) & 1;
}

int cbp_twi_addressed(avr_t *avr, uint8_t address) {
    cbp_twi *t = cbp_twi_find(avr);
    if (!t || address > 0x7F) return 0;
    uint8_t bit = (uint8_t)(1u << (address & 7));
    if (!(t->addressed[address >> 3] & bit)) return 0;
    return t->acknowledged[address >> 3] & bit ? 2 : 1;
}
