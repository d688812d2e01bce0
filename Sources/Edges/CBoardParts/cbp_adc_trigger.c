// The ADC's auto trigger from a timer, INT0 or the analog comparator, as the
// chip has it: with ADATE set, the rising edge of the interrupt flag ADTS
// selects (OCF0A, TOV0, OCF1B, TOV1, ICF1, INTF0, ACI) starts a conversion,
// unless one is running. simavr 1.6 implements free running only and turns
// the others off with "unimplemented auto trigger mode", so a sketch that
// samples on Timer1's compare waited for its first result for ever.
//
// A flag that is never cleared rises no more, and starts no more
// conversions: a sketch must clear it (an empty ISR, or a one written to
// TIFRn), as on the chip. The edge is seen on the vector's pending irq:
// simavr raises it with 1 each time it sets the flag, and with 0 when the
// flag is served; cbp_flag_clear raises it with 0 when a written one clears
// the flag.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <sim_interrupts.h>
#include <avr_acomp.h>
#include <avr_adc.h>
#include <avr_extint.h>
#include <avr_timer.h>

enum { CBP_ADC_SOURCES = 8 };

typedef struct {
    avr_adc_t *adc;
    uint8_t mode;  // avr_adts_type
    bool armed;    // the flag was clear since the last trigger
} cbp_adc_source;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    int count;
    cbp_adc_source sources[CBP_ADC_SOURCES];
} cbp_adc_trigger;

static void cbp_adc_flag_moved(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    cbp_adc_source *source = param;
    if (!value) {
        source->armed = true;
        return;
    }
    if (!source->armed) return;  // set again without being cleared: no edge
    source->armed = false;
    avr_adc_t *adc = source->adc;
    avr_t *avr = adc->io.avr;
    if (!avr_regbit_get(avr, adc->adate)) return;
    uint8_t adts = avr_regbit_get_array(avr, adc->adts, ARRAY_SIZE(adc->adts));
    if (adc->adts_op[adts] != source->mode) return;
    avr_raise_irq(adc->io.irq + ADC_IRQ_IN_TRIGGER, 1);  // ignored while a conversion runs
}

static bool cbp_adc_source_add(cbp_adc_trigger *module, avr_adc_t *adc, uint8_t mode, avr_int_vector_t *vector) {
    if (!vector->vector) return true;
    bool used = false;
    for (int i = 0; i < 16; i++) used = used || adc->adts_op[i] == mode;
    if (!used) return true;  // this chip's ADC has no such trigger
    if (module->count == CBP_ADC_SOURCES) return false;
    cbp_adc_source *source = &module->sources[module->count++];
    *source = (cbp_adc_source){adc, mode, true};
    avr_irq_register_notify(vector->irq + AVR_INT_IRQ_PENDING, cbp_adc_flag_moved, source);
    return true;
}

bool cbp_adc_trigger_install(avr_t *avr) {
    avr_adc_t *adc = NULL;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "adc") == 0) adc = (avr_adc_t *)io;
    }
    if (!adc) return true;
    cbp_adc_trigger *module = calloc(1, sizeof *module);
    if (!module) return false;
    module->io.kind = "adc-trigger";
    bool ok = true;
    for (avr_io_t *io = avr->io_port; io && ok; io = io->next) {
        if (!io->kind) continue;
        if (strcmp(io->kind, "timer") == 0) {
            avr_timer_t *t = (avr_timer_t *)io;
            if (t->name == '0') {
                ok = cbp_adc_source_add(module, adc, avr_adts_timer_0_compare_match_a, &t->comp[0].interrupt)
                    && cbp_adc_source_add(module, adc, avr_adts_timer_0_compare_match_b, &t->comp[1].interrupt)
                    && cbp_adc_source_add(module, adc, avr_adts_timer_0_overflow, &t->overflow);
            } else if (t->name == '1') {
                ok = cbp_adc_source_add(module, adc, avr_adts_timer_1_compare_match_b, &t->comp[1].interrupt)
                    && cbp_adc_source_add(module, adc, avr_adts_timer_1_overflow, &t->overflow)
                    && cbp_adc_source_add(module, adc, avr_adts_timer_1_capture_event, &t->icr);
            }
        } else if (strcmp(io->kind, "extint") == 0) {
            ok = cbp_adc_source_add(module, adc, avr_adts_external_interrupt_0, &((avr_extint_t *)io)->eint[0].vector);
        } else if (strcmp(io->kind, "ac") == 0) {
            ok = cbp_adc_source_add(module, adc, avr_adts_analog_comparator_0, &((avr_acomp_t *)io)->ac);
        }
    }
    cbp_register_module(avr, &module->io);  // after the walk, so the walk never meets it
    return ok;
}
