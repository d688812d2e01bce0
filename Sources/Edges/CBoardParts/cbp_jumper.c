// Wires between the chip's own pins (a Wokwi diagram's `uno:7` to `uno:6`,
// a SoftwareSerial loopback from TX to RX): the pins so joined are one net,
// and each member takes what the others give it, from the very write to
// PORT, DDR or PIN that changed it, or the part's drive that did (a button
// on one of them), so pin-change and external interrupts follow as on a
// board. An output gives its level; an input gives what a part drives it
// to, else a resistor's pull, else its own pull-up (as a pull). Of two that
// differ the stronger wins, then the first: two outputs at odds are a short
// on a board; here each reads its own level and the others the first's, and
// the net's shorts are counted, its first pair kept with when the first and
// the last began (cbp_jumper_shorts), for a line to the maker.
// What a wire gives an input ranks below a part on that pin
// (cbp_pin_wire); an output reads its own level whatever the wire carries.
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

// A level and how strongly it is held: 0 nothing, 1 a pull, 2 a drive;
// `output` when the pin's own output drives it.
typedef struct {
    uint8_t strength;
    bool high;
    bool output;
} cbp_level;

typedef struct {
    char port;
    uint8_t mask;
    avr_ioport_t *io;  // the port's registers, found once when the wire is added
    cbp_level given;   // what the net gives this pin now
} cbp_net_pin;

typedef struct {
    int count;
    cbp_net_pin pins[CBP_NET_PINS];
    int short_index;  // its entry in short_list, -1 before its first short
    bool in_short;    // two of its outputs at odds now
} cbp_net;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    int count;
    cbp_net nets[CBP_NETS];
    int shorts;
    cbp_jumper_short short_list[CBP_NETS];
} cbp_jumpers;

static cbp_jumpers *cbp_jumpers_find(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "jumpers") == 0) return (cbp_jumpers *)io;
    }
    return NULL;
}

// What a pin gives the net.
static cbp_level cbp_net_source(avr_t *avr, const cbp_net_pin *pin) {
    avr_ioport_t *p = pin->io;
    bool set = avr->data[p->r_port] & pin->mask;
    if (avr->data[p->r_ddr] & pin->mask) return (cbp_level){ 2, set, true };
    bool high = false;
    int strength = cbp_pin_parts(avr, pin->port, pin->mask, &high);
    if (strength) return (cbp_level){ (uint8_t)strength, high };
    return (cbp_level){ set ? 1 : 0, set };
}

static void cbp_net_give(avr_t *avr, cbp_net_pin *pin, cbp_level level) {
    if (pin->given.strength == level.strength && (level.strength == 0 || pin->given.high == level.high)) return;
    pin->given = level;
    cbp_pin_wire(avr, pin->port, pin->mask, level.strength, level.high ? 0xFF : 0);
}

// Counts the net's shorts (two outputs at odds: a short circuit on a board),
// each from the moment it begins; its first pair is the one named.
static void cbp_net_look_for_short(avr_t *avr, cbp_jumpers *j, cbp_net *net, const cbp_level *sources) {
    int first = -1, second = -1;
    for (int a = 0; a < net->count && first < 0; a++) {
        if (!sources[a].output) continue;
        for (int b = a + 1; b < net->count; b++) {
            if (!sources[b].output || sources[a].high == sources[b].high) continue;
            first = a;
            second = b;
            break;
        }
    }
    bool was = net->in_short;
    net->in_short = first >= 0;
    if (was || first < 0) return;
    if (net->short_index < 0) {
        net->short_index = j->shorts++;
        j->short_list[net->short_index] = (cbp_jumper_short){
            net->pins[first].port, (uint8_t)__builtin_ctz(net->pins[first].mask),
            net->pins[second].port, (uint8_t)__builtin_ctz(net->pins[second].mask), avr->cycle, 0, 0 };
    }
    cbp_jumper_short *entry = &j->short_list[net->short_index];
    entry->count++;
    entry->last_cycle = avr->cycle;
}

// Every member from the others' sources (the wire's own drives do not call
// this again: only a part's change does, cbp_pin_drive_on_parts_changed).
static void cbp_jumpers_update(avr_t *avr, void *param) {
    cbp_jumpers *j = param;
    for (int n = 0; n < j->count; n++) {
        cbp_net *net = &j->nets[n];
        cbp_level sources[CBP_NET_PINS];
        for (int i = 0; i < net->count; i++) sources[i] = cbp_net_source(avr, &net->pins[i]);
        cbp_net_look_for_short(avr, j, net, sources);
        for (int i = 0; i < net->count; i++) {
            cbp_level level = { 0, false };
            for (int k = 0; k < net->count; k++) {
                if (k != i && sources[k].strength > level.strength) level = sources[k];
            }
            cbp_net_give(avr, &net->pins[i], level);
        }
    }
}

static void cbp_jumpers_register_written(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr; (void)value;
    cbp_jumpers_update(avr, param);
}

// After a reset every pin is an input again: the wires give nothing until
// the parts' levels are looked at again.
static void cbp_jumpers_reset(avr_io_t *io) {
    cbp_jumpers *j = (cbp_jumpers *)io;
    for (int n = 0; n < j->count; n++) {
        for (int i = 0; i < j->nets[n].count; i++) cbp_net_give(io->avr, &j->nets[n].pins[i], (cbp_level){ 0, false });
    }
    cbp_jumpers_update(io->avr, j);
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
        cbp_register_module(avr, &j->io);
        cbp_pin_drive_on_parts_changed(avr, cbp_jumpers_update, j);
    }
    cbp_net_pin a = { port_a, mask_a, ports[0], { 0, false, false } }, b = { port_b, mask_b, ports[1], { 0, false, false } };
    int na = cbp_net_of(j, port_a, mask_a), nb = cbp_net_of(j, port_b, mask_b);
    if (na < 0 && nb < 0) {
        if (j->count == CBP_NETS) return false;
        na = j->count++;
        j->nets[na].count = 0;
        j->nets[na].short_index = -1;
        j->nets[na].in_short = false;
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

int cbp_jumper_shorts(struct avr_t *avr, cbp_jumper_short *shorts, int max) {
    cbp_jumpers *j = cbp_jumpers_find(avr);
    if (!j) return 0;
    int n = j->shorts < max ? j->shorts : max;
    memcpy(shorts, j->short_list, (size_t)n * sizeof *shorts);
    return n;
}
