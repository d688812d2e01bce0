// The interrupt vectors whose flag is a latched bit the chip sets whether or
// not the interrupt is enabled, and clears when it is served or a one is
// written to it: the external interrupts, pin change, ADC, comparator, SPI,
// timers and watchdog. cbp_flag_clear and cbp_int_unmask both walk them.
// Also here: taking back an interrupt asked for and not served, fifo and all.
#include "CBoardParts.h"

#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_interrupts.h>
#include <avr_acomp.h>
#include <avr_adc.h>
#include <avr_extint.h>
#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_timer.h>
#include <avr_watchdog.h>

bool cbp_each_flag_vector(avr_t *avr, cbp_flag_vector_visit visit, void *context) {
    bool ok = true;
    for (avr_io_t *io = avr->io_port; io && ok; io = io->next) {
        if (!io->kind) continue;
        if (strcmp(io->kind, "extint") == 0) {
            avr_extint_t *p = (avr_extint_t *)io;
            for (int i = 0; i < EXTINT_COUNT && ok; i++) ok = visit(avr, &p->eint[i].vector, CBP_FLAG_EXTINT, p->eint[i].isc, context);
        } else if (strcmp(io->kind, "port") == 0) {
            ok = visit(avr, &((avr_ioport_t *)io)->pcint, CBP_FLAG_PIN_CHANGE, NULL, context);
        } else if (strcmp(io->kind, "adc") == 0) {
            ok = visit(avr, &((avr_adc_t *)io)->adc, CBP_FLAG_ADC, NULL, context);
        } else if (strcmp(io->kind, "ac") == 0) {
            ok = visit(avr, &((avr_acomp_t *)io)->ac, CBP_FLAG_COMPARATOR, NULL, context);
        } else if (strcmp(io->kind, "spi") == 0) {
            ok = visit(avr, &((avr_spi_t *)io)->spi, CBP_FLAG_SPI, NULL, context);
        } else if (strcmp(io->kind, "timer") == 0) {
            avr_timer_t *p = (avr_timer_t *)io;
            ok = visit(avr, &p->overflow, CBP_FLAG_TIMER, NULL, context) && visit(avr, &p->icr, CBP_FLAG_TIMER, NULL, context);
            for (int i = 0; i < AVR_TIMER_COMP_COUNT && ok; i++) ok = visit(avr, &p->comp[i].interrupt, CBP_FLAG_TIMER, NULL, context);
        } else if (strcmp(io->kind, "watchdog") == 0) {
            ok = visit(avr, &((avr_watchdog_t *)io)->watchdog, CBP_FLAG_WATCHDOG, NULL, context);
        }
    }
    return ok;
}

// The pending fifo's accessors, as sim_interrupts.c defines them for itself (static).
DEFINE_FIFO(avr_int_vector_p, avr_int_pending);

void cbp_interrupt_withdraw(avr_t *avr, avr_int_vector_t *vector) {
    // simavr's clear leaves the vector in the pending fifo (to be skipped when
    // its turn comes); each new raise then adds another entry, and a full fifo
    // drops the next raise of any vector: the watchdog's interrupt, pending
    // for good, ended every power-down sleep at once.
    avr_int_pending_t *fifo = &avr->interrupts.pending;
    avr_int_vector_t *kept[avr_int_pending_fifo_size];
    int count = 0;
    for (int i = 0, n = avr_int_pending_get_read_size(fifo); i < n; i++) {
        avr_int_vector_t *v = avr_int_pending_read_at(fifo, (uint16_t)i);
        if (v != vector) kept[count++] = v;
    }
    avr_int_pending_reset(fifo);
    for (int i = 0; i < count; i++) avr_int_pending_write(fifo, kept[i]);
    avr_clear_interrupt(avr, vector);
}
