// The ADC's result as the chip computes it: Vin · 1024 / Vref, at most 1023
// (ATmega328P datasheet, "ADC Conversion Result"). simavr 1.6 scales by 1023,
// so every reading above 0 came out up to one step low: 2.5 V against a 5 V
// reference read 511 where the chip (and Wokwi, whose potentiometer test
// expects 512 at position 0.5) reads 512. simavr converts when ADCL is read
// (or ADCH first); both its read handlers are replaced by these, which convert
// as simavr does, inputs and references included, except for the scale.
//
// And the Mega's ADC8…ADC15 (A8–A15, MUX5 set): simavr 1.6 keeps eight input
// values and drops what its ADC8…15 irqs are given, so every analogRead there
// read 0. Those eight are kept here (cbp_adc_set_millivolts).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <avr_adc.h>

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    avr_adc_t *adc;
    uint32_t upper[8];  // ADC8…ADC15, millivolts
} cbp_adc_scale;

static cbp_adc_scale *cbp_adc_scale_find(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "adc-scale") == 0) return (cbp_adc_scale *)io;
    }
    return NULL;
}

// Input `src`'s millivolts: simavr's for the first eight, ours for the rest.
static uint32_t cbp_adc_channel(const cbp_adc_scale *s, uint8_t src) {
    if (src < ARRAY_SIZE(s->adc->adc_values)) return s->adc->adc_values[src];
    return src < 16 ? s->upper[src - 8] : 0;
}

// The input in millivolts and the reference it is converted against, as simavr reads them.
static void cbp_adc_input(avr_t *avr, const cbp_adc_scale *s, uint32_t *millivolts, uint32_t *reference) {
    avr_adc_t *p = s->adc;
    uint8_t refi = avr_regbit_get_array(avr, p->ref, ARRAY_SIZE(p->ref));
    uint16_t ref = p->ref_values[refi];
    avr_adc_mux_t mux = p->muxmode[avr_regbit_get_array(avr, p->mux, ARRAY_SIZE(p->mux))];
    uint32_t value = 0;
    switch (mux.kind) {
    case ADC_MUX_SINGLE: value = cbp_adc_channel(s, mux.src); break;
    case ADC_MUX_DIFF: {
        uint32_t gain = mux.gain ? mux.gain : 1;
        uint32_t plus = cbp_adc_channel(s, mux.src);
        uint32_t minus = cbp_adc_channel(s, mux.diff);
        value = plus * gain - minus * gain;  // simavr's (unsigned, as it has it)
        break;
    }
    case ADC_MUX_TEMP: value = p->temp; break;
    case ADC_MUX_REF: value = mux.src; break;
    case ADC_MUX_VCC4: value = avr->vcc / 4; break;
    }
    uint32_t vref = 3300;  // simavr's when the board set none
    switch (ref) {
    case ADC_VREF_VCC: if (avr->vcc) vref = avr->vcc; break;
    case ADC_VREF_AREF: if (avr->aref) vref = avr->aref; break;
    case ADC_VREF_AVCC: if (avr->avcc) vref = avr->avcc; break;
    default: vref = ref;
    }
    *millivolts = value;
    *reference = vref;
}

static uint8_t cbp_adc_read_l(avr_t *avr, avr_io_addr_t addr, void *param) {
    cbp_adc_scale *s = param;
    avr_adc_t *p = s->adc;
    if (p->read_status) return avr_core_watch_read(avr, addr);  // converted already
    uint32_t millivolts, reference;
    cbp_adc_input(avr, s, &millivolts, &reference);
    uint64_t result = (uint64_t)millivolts * 1024 / reference;
    if (result > 0x3ff) result = 0x3ff;
    uint32_t reg = (uint32_t)result << (avr_regbit_get(avr, p->adlar) ? 6 : 0);
    avr->data[p->r_adcl] = (uint8_t)reg;
    avr->data[p->r_adch] = (uint8_t)(reg >> 8);
    p->read_status = 1;
    return avr_core_watch_read(avr, addr);
}

// ADCH read first (a left-adjusted 8-bit reading) converts too.
static uint8_t cbp_adc_read_h(avr_t *avr, avr_io_addr_t addr, void *param) {
    avr_adc_t *p = ((cbp_adc_scale *)param)->adc;
    if (p->read_status == 0) cbp_adc_read_l(avr, p->r_adcl, param);
    p->read_status = 2;
    return avr_core_watch_read(avr, addr);
}

void cbp_adc_scale_install(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "adc") != 0) continue;
        cbp_adc_scale *s = calloc(1, sizeof *s);
        if (!s) return;
        s->adc = (avr_adc_t *)io;
        s->io.kind = "adc-scale";
        // avr_register_io_read aborts on a second handler: the slots are set in place.
        avr->io[AVR_DATA_TO_IO(s->adc->r_adcl)].r.c = cbp_adc_read_l;
        avr->io[AVR_DATA_TO_IO(s->adc->r_adcl)].r.param = s;
        avr->io[AVR_DATA_TO_IO(s->adc->r_adch)].r.c = cbp_adc_read_h;
        avr->io[AVR_DATA_TO_IO(s->adc->r_adch)].r.param = s;
        cbp_register_module(avr, &s->io);  // after the loop's look at the list: it is one more module
        return;
    }
}

bool cbp_adc_set_millivolts(avr_t *avr, int channel, uint32_t millivolts) {
    avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + channel);
    if (!irq || channel < 0 || channel > 15) return false;
    cbp_adc_scale *s = cbp_adc_scale_find(avr);
    if (s && channel >= (int)ARRAY_SIZE(s->adc->adc_values)) s->upper[channel - 8] = millivolts;
    avr_raise_irq(irq, millivolts);
    return true;
}
