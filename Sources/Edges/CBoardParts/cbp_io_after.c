// A register write seen after simavr's own handler, without simavr's io
// muxer: that has four shared registers for the whole chip (the Mega's four
// UARTs alone would fill it, and a fifth aborts the process). The handler in
// place (or the core's plain store, if none) runs first, then ours.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>

#define CBP_IO_AFTER_SLOTS 96

typedef struct {
    avr_io_write_t before;  // what was installed: simavr's handler, or NULL
    void *before_param;
    avr_io_write_t after;
    void *param;
} cbp_io_after_slot;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    int used;
    cbp_io_after_slot slots[CBP_IO_AFTER_SLOTS];
} cbp_io_after_table;

static void cbp_io_after_write(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    cbp_io_after_slot *slot = param;
    if (slot->before) {
        slot->before(avr, addr, value, slot->before_param);
    } else {
        avr_core_watch_write(avr, addr, value);
    }
    slot->after(avr, addr, value, slot->param);
}

static cbp_io_after_table *cbp_io_after_find(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "io-after") == 0) return (cbp_io_after_table *)io;
    }
    cbp_io_after_table *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    table->io.kind = "io-after";
    cbp_register_module(avr, &table->io);
    return table;
}

bool cbp_io_after(avr_t *avr, avr_io_addr_t addr, avr_io_write_t after, void *param) {
    avr_io_addr_t a = AVR_DATA_TO_IO(addr);
    if (addr < 32 || a >= MAX_IOs) return false;
    // Once per register for this handler and parameter, however many regbits name it.
    avr_io_write_t c = avr->io[a].w.c;
    void *p = avr->io[a].w.param;
    while (c == cbp_io_after_write) {
        cbp_io_after_slot *slot = p;
        if (slot->after == after && slot->param == param) return true;
        c = slot->before;
        p = slot->before_param;
    }
    cbp_io_after_table *table = cbp_io_after_find(avr);
    if (!table || table->used == CBP_IO_AFTER_SLOTS) return false;
    cbp_io_after_slot *slot = &table->slots[table->used++];
    *slot = (cbp_io_after_slot){avr->io[a].w.c, avr->io[a].w.param, after, param};
    avr->io[a].w.c = cbp_io_after_write;
    avr->io[a].w.param = slot;
    return true;
}

void cbp_io_store(avr_t *avr, avr_io_addr_t addr, uint8_t value) {
    avr_io_addr_t a = AVR_DATA_TO_IO(addr);
    if (addr >= 32 && a < MAX_IOs && avr->io[a].w.c) avr->io[a].w.c(avr, addr, value, avr->io[a].w.param);
    else avr->data[addr] = value;
}
