// A UART byte's time as on the chip: simavr 1.6 counts a parity bit in every
// frame (1 start + 8 data + 1 parity + 1 stop = 11 bit times for 8N1), so
// Serial ran about 10 % slow at every baud rate. After simavr's own baud
// write (`cbp_io_after`), the frame is recounted with the parity
// bit only when UPMn1:0 in UCSRnC ask for one.
#include "CBoardParts.h"

#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <avr_uart.h>

static void cbp_uart_recount(struct avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr; (void)value;
    avr_uart_t *p = param;
    static const int databits[] = {5, 6, 7, 8, 8, 8, 8, 9};
    uint32_t ubrr = avr_regbit_get(avr, p->ubrrl) | (avr_regbit_get(avr, p->ubrrh) << 8);
    int data = databits[avr_regbit_get(avr, p->ucsz) | (avr_regbit_get(avr, p->ucsz2) << 2)];
    int stops = 1 + avr_regbit_get(avr, p->usbs);
    // UPMn1:0 are bits 5:4 of UCSRnC, the register that holds USBSn on these parts.
    int parity = p->r_ucsrc && (avr->data[p->r_ucsrc] & 0x30) ? 1 : 0;
    avr_cycle_count_t per_bit = (avr_cycle_count_t)(ubrr + 1) * (avr_regbit_get(avr, p->u2x) ? 8 : 16);
    p->cycles_per_byte = per_bit * (avr_cycle_count_t)(1 + data + parity + stops);
}

void cbp_uart_timing_install(struct avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "uart") != 0) continue;
        avr_uart_t *p = (avr_uart_t *)io;
        if (!p->ubrrl.reg) continue;
        cbp_io_after(avr, p->ubrrl.reg, cbp_uart_recount, p);
        if (p->r_ucsrc) cbp_io_after(avr, p->r_ucsrc, cbp_uart_recount, p);
    }
}

uint32_t cbp_serial_baud(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "usb-serial") == 0) return 0;  // the 32U4's Serial: USB, no baud rate on the wire
    }
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "uart") != 0) continue;
        avr_uart_t *p = (avr_uart_t *)io;
        if (p->name != '0' || !avr_regbit_get(avr, p->txen)) continue;
        uint32_t ubrr = avr_regbit_get(avr, p->ubrrl) | (avr_regbit_get(avr, p->ubrrh) << 8);
        return avr->frequency / ((ubrr + 1) * (avr_regbit_get(avr, p->u2x) ? 8u : 16u));
    }
    return 0;
}
