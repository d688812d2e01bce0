// Bytes a sketch writes to a UART whose transmitter is off (TXENn clear:
// Serial.print before Serial.begin), to UDRn or queued for its ISR (UDRIEn
// set). The chip sends nothing; once the core's 64-byte buffer is full,
// Serial.write waits for ever for a UDRE that never comes, so a sketch that
// calls Serial.begin only in a debug build hangs in its release build with
// a dark screen. The runner counts them to say so (`SketchRun`).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <avr_uart.h>

#define CBP_UART_MAX 8

typedef struct {
    avr_uart_t *uart;
    uint32_t writes;
} cbp_uart_writes;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    cbp_uart_writes uarts[CBP_UART_MAX];
} cbp_uart_transmitter_off;

// After a store to UDRn (a byte straight to the transmitter) or to UCSRnB
// (the core's Serial.write queueing one: UDRIEn set to send it from the ISR).
static void cbp_uart_written(struct avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)value;
    cbp_uart_writes *slot = param;
    avr_uart_t *p = slot->uart;
    if (avr_regbit_get(avr, p->txen)) return;
    bool sending = addr == p->r_udr || avr_regbit_get(avr, p->udrc.enable);
    if (sending && slot->writes < UINT32_MAX) slot->writes++;
}

static void cbp_uart_transmitter_off_reset(avr_io_t *io) {
    cbp_uart_transmitter_off *table = (cbp_uart_transmitter_off *)io;
    for (int i = 0; i < CBP_UART_MAX; i++) table->uarts[i].writes = 0;
}

static cbp_uart_transmitter_off *cbp_uart_transmitter_off_find(struct avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "uart-transmitter-off") == 0) return (cbp_uart_transmitter_off *)io;
    }
    return NULL;
}

bool cbp_uart_transmitter_off_install(struct avr_t *avr) {
    cbp_uart_transmitter_off *table = calloc(1, sizeof *table);
    if (!table) return false;
    table->io.kind = "uart-transmitter-off";
    table->io.reset = cbp_uart_transmitter_off_reset;
    cbp_register_module(avr, &table->io);
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "uart") != 0) continue;
        avr_uart_t *p = (avr_uart_t *)io;
        int number = p->name - '0';
        if (number < 0 || number >= CBP_UART_MAX || !p->r_udr || !p->txen.reg) continue;
        table->uarts[number].uart = p;
        if (!cbp_io_after(avr, p->r_udr, cbp_uart_written, &table->uarts[number])
            || !cbp_io_after(avr, p->txen.reg, cbp_uart_written, &table->uarts[number])) return false;
    }
    return true;
}

uint32_t cbp_uart_writes_with_transmitter_off(struct avr_t *avr, int number) {
    cbp_uart_transmitter_off *table = cbp_uart_transmitter_off_find(avr);
    if (!table || number < 0 || number >= CBP_UART_MAX) return 0;
    return table->uarts[number].writes;
}
