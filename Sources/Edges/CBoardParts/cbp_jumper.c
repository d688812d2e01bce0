// Wires between the chip's own pins (a Wokwi diagram's `uno:7` to `uno:6`,
// a SoftwareSerial loopback from TX to RX): the pins so joined are one net,
// and each member reads what the others give it, from the very write to
// PORT, DDR or PIN that changed it, so pin-change and external interrupts
// follow as on a board: an output's level, else a pull-up's high, else
// nothing (it keeps what it read). Two outputs at odds are a short on a
// board; here the first member's level wins.
//
// Why: such a wire joins no part tiltsim models, and was dropped without a
// word: pin 6 read 0 while pin 7 drove it high, and a loopback read nothing.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <avr_ioport.h>
#include <sim_avr.h>
#include <sim_io.h>

enum { CBP_NETS = 16, CBP_NET_PINS = 8 };

typedef enum { CBP_LEVEL_NONE, CBP_LEVEL_PULLED_UP, CBP_LEVEL_LOW, CBP_LEVEL_HIGH } cbp_level;

typedef struct {
    char port;
    uint8_t mask;
    cbp_level given;  // what the net gives this pin now
} cbp_net_pin;

typedef struct {
    int count;
    cbp_net_pin pins[CBP_NET_PINS];
} cbp_net;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    int count;
    cbp_net nets[CBP_NETS];
} cbp_jumpers;

static cbp_jumpers *cbp_jumpers_find(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "jumpers") == 0) return (cbp_jumpers *)io;
    }
    return NULL;
}

// What a pin gives the net: its output's level, its pull-up, or nothing.
static cbp_level cbp_net_source(avr_t *avr, const cbp_net_pin *pin) {
    avr_ioport_t *p = cbp_ioport(avr, pin->port);
    if (!p) return CBP_LEVEL_NONE;
    bool output = avr->data[p->r_ddr] & pin->mask, set = avr->data[p->r_port] & pin->mask;
    if (output) return set ? CBP_LEVEL_HIGH : CBP_LEVEL_LOW;
    return set ? CBP_LEVEL_PULLED_UP : CBP_LEVEL_NONE;
}

static void cbp_net_give(avr_t *avr, cbp_net_pin *pin, cbp_level level) {
    if (pin->given == level) return;
    if (pin->given == CBP_LEVEL_PULLED_UP) cbp_pin_unpull(avr, pin->port, pin->mask);
    pin->given = level;
    switch (level) {
    case CBP_LEVEL_LOW: cbp_pin_drive(avr, pin->port, pin->mask, 0); break;
    case CBP_LEVEL_HIGH: cbp_pin_drive(avr, pin->port, pin->mask, 0xFF); break;
    case CBP_LEVEL_PULLED_UP:
        cbp_pin_release(avr, pin->port, pin->mask);
        cbp_pin_pull(avr, pin->port, pin->mask, 0xFF);
        break;
    case CBP_LEVEL_NONE: cbp_pin_release(avr, pin->port, pin->mask); break;
    }
}

// Every member from the others' sources (a drive writes no register, so
// this is not called again from inside).
static void cbp_jumpers_update(avr_t *avr, cbp_jumpers *j) {
    for (int n = 0; n < j->count; n++) {
        cbp_net *net = &j->nets[n];
        cbp_level sources[CBP_NET_PINS];
        for (int i = 0; i < net->count; i++) sources[i] = cbp_net_source(avr, &net->pins[i]);
        for (int i = 0; i < net->count; i++) {
            cbp_level level = CBP_LEVEL_NONE;
            for (int k = 0; k < net->count; k++) {
                if (k == i || sources[k] <= level) continue;
                if (level >= CBP_LEVEL_LOW) break;  // the first output wins a short
                level = sources[k];
            }
            cbp_net_give(avr, &net->pins[i], level);
        }
    }
}

static void cbp_jumpers_register_written(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr; (void)value;
    cbp_jumpers_update(avr, param);
}

// After a reset every pin is an input again: nothing is driven.
static void cbp_jumpers_reset(avr_io_t *io) {
    cbp_jumpers *j = (cbp_jumpers *)io;
    for (int n = 0; n < j->count; n++) {
        for (int i = 0; i < j->nets[n].count; i++) cbp_net_give(io->avr, &j->nets[n].pins[i], CBP_LEVEL_NONE);
    }
}

static int cbp_net_of(cbp_jumpers *j, char port, uint8_t mask) {
    for (int n = 0; n < j->count; n++) {
        for (int i = 0; i < j->nets[n].count; i++) {
            if (j->nets[n].pins[i].port == port && j->nets[n].pins[i].mask == mask) return n;
        }
    }
    return -1;
}

static bool cbp_net_append(cbp_net *net, cbp_net_pin pin) {
    if (net->count == CBP_NET_PINS) return false;
    net->pins[net->count++] = pin;
    return true;
}

bool cbp_jumper_add(avr_t *avr, char port_a, uint8_t bit_a, char port_b, uint8_t bit_b) {
    avr_ioport_t *ports[2] = { cbp_ioport(avr, port_a), cbp_ioport(avr, port_b) };
    if (!ports[0] || !ports[1] || bit_a > 7 || bit_b > 7) return false;
    uint8_t mask_a = (uint8_t)(1u << bit_a), mask_b = (uint8_t)(1u << bit_b);
    if (port_a == port_b && mask_a == mask_b) return true;  // a pin wired to itself
    cbp_jumpers *j = cbp_jumpers_find(avr);
    if (!j) {
        j = calloc(1, sizeof *j);
        if (!j) return false;
        j->io.kind = "jumpers";
        j->io.reset = cbp_jumpers_reset;
        avr_register_io(avr, &j->io);
    }
    cbp_net_pin a = { port_a, mask_a, CBP_LEVEL_NONE }, b = { port_b, mask_b, CBP_LEVEL_NONE };
    int na = cbp_net_of(j, port_a, mask_a), nb = cbp_net_of(j, port_b, mask_b);
    if (na < 0 && nb < 0) {
        if (j->count == CBP_NETS) return false;
        na = j->count++;
        j->nets[na].count = 0;
        if (!cbp_net_append(&j->nets[na], a) || !cbp_net_append(&j->nets[na], b)) return false;
    } else if (na < 0 || nb < 0) {
        if (!cbp_net_append(&j->nets[na < 0 ? nb : na], na < 0 ? a : b)) return false;
    } else if (na != nb) {  // two nets joined: b's pins (with what they are given) move to a's, the last net takes b's place
        if (j->nets[na].count + j->nets[nb].count > CBP_NET_PINS) return false;
        for (int i = 0; i < j->nets[nb].count; i++) cbp_net_append(&j->nets[na], j->nets[nb].pins[i]);
        j->nets[nb] = j->nets[--j->count];
    }
    for (int i = 0; i < 2; i++) {
        avr_io_addr_t registers[3] = { ports[i]->r_port, ports[i]->r_ddr, ports[i]->r_pin };  // a PIN write toggles PORT
        for (int r = 0; r < 3; r++) {
            if (!cbp_io_after(avr, registers[r], cbp_jumpers_register_written, j)) return false;
        }
    }
    cbp_jumpers_update(avr, j);
    return true;
}
