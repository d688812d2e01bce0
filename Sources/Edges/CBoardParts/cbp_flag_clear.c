// Interrupt flags cleared by writing a one, as the chip has them: EIFR's
// INTFn, PCIFR's PCIFn, ADCSRA's ADIF, ACSR's ACI, WDTCSR's WDIF and the
// timers' TIFRn (the UART's simavr clears itself). simavr 1.6 stores what is written,
// so `EIFR = _BV(INTF0)` set the flag instead of clearing it (a sketch that
// polls EIFR for the MPU-6050's data-ready counted 64 692 edges a second for
// 100) and ADIF could not be cleared (a loop waiting on it waited once, then
// read 99 unfinished conversions); a write to TIFRn cleared every flag in it,
// whatever was written (its own handler, replaced here, looks at no value).
// Here a 0 written leaves a flag as it was
// and a 1 clears it, and with it an interrupt still pending for that flag.
//
// SBI and CBI on I/O 0x00-0x1F (EIFR and PCIFR are there) touch only their
// own bit on these chips ("unlike most other AVRs", the datasheets say), but
// simavr hands the register's write handler the whole byte it read and
// modified: the instruction being run tells which bit was meant.
#include "CBoardParts.h"

#include <stdlib.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_interrupts.h>

enum { CBP_FLAG_REGISTERS = 16, CBP_FLAGS_PER_REGISTER = 8 };

typedef struct {
    avr_io_addr_t addr;
    avr_io_write_t before;  // what was installed: simavr's handler, or NULL
    void *before_param;
    avr_int_vector_t *vectors[CBP_FLAGS_PER_REGISTER];
    int count;
} cbp_flag_register;

typedef struct {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    int used;
    cbp_flag_register registers[CBP_FLAG_REGISTERS];
} cbp_flag_clear;

/// The bits a write sets to one: `value`, or for SBI/CBI on this register only
/// the bit the instruction names (CBI: none).
static uint8_t cbp_flag_ones_written(avr_t *avr, avr_io_addr_t addr, uint8_t value) {
    if (addr < 0x20 || addr >= 0x40 || avr->pc + 1 >= avr->flashend + 1) return value;
    uint16_t op = (uint16_t)(avr->flash[avr->pc] | (avr->flash[avr->pc + 1] << 8));
    if ((op >> 3 & 0x1F) != addr - 0x20) return value;
    if ((op & 0xFF00) == 0x9A00) return (uint8_t)(1 << (op & 7));  // SBI A, b
    if ((op & 0xFF00) == 0x9800) return 0;                          // CBI A, b
    return value;
}

static void cbp_flag_write(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    cbp_flag_register *r = param;
    uint8_t flags = 0;
    for (int i = 0; i < r->count; i++) flags |= (uint8_t)(1 << r->vectors[i]->raised.bit);
    uint8_t before = avr->data[addr];
    uint8_t ones = cbp_flag_ones_written(avr, addr, value);
    if (r->before) {
        r->before(avr, addr, value, r->before_param);
    } else {
        avr_core_watch_write(avr, addr, value);
    }
    // Whatever the handler made of the flag bits: they are as before, less the ones written.
    avr->data[addr] = (uint8_t)((avr->data[addr] & ~flags) | (before & flags & ~ones));
    for (int i = 0; i < r->count; i++) {
        avr_int_vector_t *vector = r->vectors[i];
        if (!(ones >> vector->raised.bit & 1)) continue;
        if (vector->pending) {
            cbp_interrupt_withdraw(avr, vector);
        } else if (before >> vector->raised.bit & 1) {
            avr_raise_irq(vector->irq + AVR_INT_IRQ_PENDING, 0);  // as a served flag says it: cbp_adc_trigger's edge
        }
    }
}

/// `replace`: simavr's own handler for the register is dropped (a timer's clears every flag).
static bool cbp_flag_add(avr_t *avr, cbp_flag_clear *module, avr_int_vector_t *vector, bool replace) {
    if (!vector->vector || !vector->raised.reg || vector->raise_sticky) return true;
    cbp_flag_register *r = NULL;
    for (int i = 0; i < module->used; i++) {
        if (module->registers[i].addr == vector->raised.reg) r = &module->registers[i];
    }
    if (!r) {
        avr_io_addr_t a = AVR_DATA_TO_IO(vector->raised.reg);
        if (module->used == CBP_FLAG_REGISTERS || vector->raised.reg < 32 || a >= MAX_IOs) return false;
        r = &module->registers[module->used++];
        *r = replace ? (cbp_flag_register){vector->raised.reg, NULL, NULL, {0}, 0}
                     : (cbp_flag_register){vector->raised.reg, avr->io[a].w.c, avr->io[a].w.param, {0}, 0};
        avr->io[a].w.c = cbp_flag_write;
        avr->io[a].w.param = r;
    }
    if (r->count == CBP_FLAGS_PER_REGISTER) return false;
    r->vectors[r->count++] = vector;
    return true;
}

/// The walk's visitor: the timers' own TIFRn handler is replaced (it clears every flag); SPI's
/// SPIF is cleared by reading SPSR and SPDR, not by a written one.
static bool cbp_flag_clear_visit(avr_t *avr, avr_int_vector_t *vector, cbp_flag_kind kind, avr_regbit_t *sense, void *context) {
    (void)sense;
    if (kind == CBP_FLAG_SPI) return true;
    return cbp_flag_add(avr, context, vector, kind == CBP_FLAG_TIMER);
}

bool cbp_flag_clear_install(avr_t *avr) {
    cbp_flag_clear *module = calloc(1, sizeof *module);
    if (!module) return false;
    module->io.kind = "flag-clear";
    // Walked before registering, so this module's own entry is not met.
    bool ok = cbp_each_flag_vector(avr, cbp_flag_clear_visit, module);
    cbp_register_module(avr, &module->io);
    return ok;
}
