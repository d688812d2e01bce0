// An interrupt unmasked while its flag is set is served, as on the chip: the
// flag (TOVn, OCFnx, ICFn, INTFn, PCIFn, ADIF, ACI, WDIF, SPIF) is set whether
// or not the interrupt is enabled, and the chip asks for the interrupt
// whenever flag and enable bit are both one. simavr 1.6 queues an interrupt
// only at the moment its flag is raised with the enable bit already set, so
// a flag set while masked was never served: `TIMSK1 = _BV(TOIE1)` after an
// overflow, attachInterrupt() after an edge, ADIE after a conversion, PCICR
// after a change all waited for the next event. Here, after a write to a
// register holding one of those enable bits, each such vector whose enable
// bit and flag are both set and that is not already pending is raised. A
// flag cleared by the same write (ADCSRA's ADIF by a one) is cleared first:
// cbp_flag_clear's handler runs before this one.
//
// The UART's and the TWI's flags are left to their models (simavr's UART
// raises its level flags again itself; cbp_twi keeps TWI pending exactly
// while TWINT and TWIE are set).
#include "CBoardParts.h"

#include <stdlib.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_interrupts.h>

enum { CBP_UNMASK_VECTORS = 64 };

typedef struct {
    avr_int_vector_t *vector;
    avr_regbit_t *sense;  // INTn's two ISC bits, NULL for the others
} cbp_unmask_entry;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    int count;
    cbp_unmask_entry entries[CBP_UNMASK_VECTORS];
} cbp_int_unmask;

static void cbp_unmask_written(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)value;
    cbp_int_unmask *module = param;
    for (int i = 0; i < module->count; i++) {
        avr_int_vector_t *vector = module->entries[i].vector;
        if (vector->enable.reg != addr || vector->pending) continue;
        // INTn at low level has no flag on the chip ("always cleared"): cbp_extint_level asks for it while the line is low.
        avr_regbit_t *sense = module->entries[i].sense;
        if (sense && sense[1].reg && avr_regbit_get_array(avr, sense, 2) == 0) continue;
        if (avr_regbit_get(avr, vector->enable) && avr_regbit_get(avr, vector->raised)) avr_raise_interrupt(avr, vector);
    }
}

static bool cbp_unmask_add(avr_t *avr, avr_int_vector_t *vector, cbp_flag_kind kind, avr_regbit_t *sense, void *context) {
    cbp_int_unmask *module = context;
    if (!vector->vector || !vector->enable.reg || !vector->raised.reg) return true;
    if (module->count == CBP_UNMASK_VECTORS) return false;
    module->entries[module->count++] = (cbp_unmask_entry){vector, kind == CBP_FLAG_EXTINT ? sense : NULL};
    // cbp_io_after keeps one entry per register for this handler and module.
    return cbp_io_after(avr, vector->enable.reg, cbp_unmask_written, module);
}

bool cbp_int_unmask_install(avr_t *avr) {
    cbp_int_unmask *module = calloc(1, sizeof *module);
    if (!module) return false;
    module->io.kind = "int-unmask";
    bool ok = cbp_each_flag_vector(avr, cbp_unmask_add, module);
    // Registered after the walk, so the walk never meets this module's own entry.
    cbp_register_module(avr, &module->io);
    return ok;
}
