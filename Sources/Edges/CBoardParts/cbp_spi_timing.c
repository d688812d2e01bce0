// An SPI byte takes its 8 SCK periods, as on the chip: SCK is the CPU clock
// divided by 4, 16, 64 or 128 (SPCR's SPR1:0), twice as fast with SPSR's
// SPI2X. simavr 1.6 finished every byte 100 µs after SPDR was written
// ("should be speed dependent"), whatever the clock: an SD card, a MAX7219 or
// a shift register driven at 8 MHz ran 80 times slower than on a board (a
// byte every 100 µs, not every 1 µs), and at 125 kHz faster. Here simavr's
// SPDR write handler is replaced by one that does what it did (SPIF cleared,
// the byte stored, the transfer's end raising SPIF and the interrupt and
// handing the byte to the bus in master mode) at the byte's own time.
#include "CBoardParts.h"

#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_interrupts.h>
#include <sim_cycle_timers.h>
#include <avr_spi.h>

static avr_cycle_count_t cbp_spi_byte_done(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    avr_spi_t *p = param;
    if (avr_regbit_get(avr, p->spe) && avr_regbit_get(avr, p->mstr)) {
        avr_raise_interrupt(avr, &p->spi);
        avr_raise_irq(p->io.irq + SPI_IRQ_OUTPUT, avr->data[p->r_spdr]);
    }
    return 0;
}

/// CPU cycles a byte takes at the clock SPCR and SPSR set.
static avr_cycle_count_t cbp_spi_byte_cycles(avr_t *avr, avr_spi_t *p) {
    static const uint8_t divisor[4] = {4, 16, 64, 128};
    uint8_t rate = (uint8_t)(avr_regbit_get(avr, p->spr[0]) | avr_regbit_get(avr, p->spr[1]) << 1);
    avr_cycle_count_t cycles = 8u * divisor[rate];
    return avr_regbit_get(avr, p->spr[2]) ? cycles / 2 : cycles;
}

static void cbp_spi_write(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param) {
    avr_spi_t *p = param;
    avr_regbit_clear(avr, p->spi.raised);
    avr_core_watch_write(avr, addr, v);
    avr_cycle_timer_cancel(avr, cbp_spi_byte_done, p);
    avr_cycle_timer_register(avr, cbp_spi_byte_cycles(avr, p), cbp_spi_byte_done, p);
}

void cbp_spi_timing_install(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "spi") != 0) continue;
        avr_spi_t *p = (avr_spi_t *)io;
        avr_io_addr_t a = AVR_DATA_TO_IO(p->r_spdr);
        if (p->r_spdr < 32 || a >= MAX_IOs) continue;
        avr->io[a].w.c = cbp_spi_write;
        avr->io[a].w.param = p;
    }
}
