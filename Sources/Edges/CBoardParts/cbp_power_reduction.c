// The power reduction registers' timer bits, which simavr 1.6 does not model:
// PRTIMn stops Timer/Counter n (no counting, no interrupts) and clearing it
// lets the timer go on as before (ATmega328P datasheet, "Power Reduction
// Register"; PRR0/PRR1 on the 2560 and 32U4). LowPower's idle(SLEEP_8S, ...,
// TIMER0_OFF, ...) stops Timer0 that way so that its overflow does not wake
// the core every millisecond; here it did (an outside tester's). The timer is
// stopped by taking its clock-select bits out through simavr's own handler,
// and the register keeps the sketch's value, which is written back through
// the handler when the bit clears. Writes to the timer's registers while it
// is off are lost, as the datasheet has it ("the I/O registers can not be
// read or written"): they are undone when it powers up (they set up a timer
// here that stayed unset on a board, an outside tester's).
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <avr_timer.h>

#define CBP_PRR0 0x64
#define CBP_PRR1 0x65
#define CBP_POWER_TIMERS 6
#define CBP_TIMER_REGISTERS 16

typedef struct {
    avr_timer_t *timer;
    uint16_t prr;       // PRR0 or PRR1
    uint8_t prr_bit;    // PRTIMn
    uint16_t cs_reg;    // TCCRnB
    uint8_t cs_mask;    // its clock-select bits
    bool off;
    uint16_t registers[CBP_TIMER_REGISTERS];  // the timer's I/O registers, clock register last
    uint8_t kept[CBP_TIMER_REGISTERS];        // their values when it powered down
    int register_count;
} cbp_timer_power;

typedef struct {
    avr_io_t io;  // first member: simavr's module list holds it
    cbp_timer_power timers[CBP_POWER_TIMERS];
    int count;
    bool storing;  // our own writes through the handler
} cbp_power_reduction;

// PRTIMn by timer: PRR0 bits 5, 3, 6 for Timer0-2; PRR1 bits 3-5 for Timer3-5.
static bool cbp_prr_bit(char name, uint16_t *prr, uint8_t *bit) {
    switch (name) {
    case '0': *prr = CBP_PRR0; *bit = 5; return true;
    case '1': *prr = CBP_PRR0; *bit = 3; return true;
    case '2': *prr = CBP_PRR0; *bit = 6; return true;
    case '3': *prr = CBP_PRR1; *bit = 3; return true;
    case '4': *prr = CBP_PRR1; *bit = 4; return true;
    case '5': *prr = CBP_PRR1; *bit = 5; return true;
    default: return false;
    }
}

// Writes `value` to the timer's clock register through simavr's handler,
// which reconfigures the timer when it differs from what the register holds
// (`was`: the clock simavr runs the timer at), then leaves `shown` there.
static void cbp_clock_store(avr_t *avr, cbp_power_reduction *m, cbp_timer_power *t, uint8_t was, uint8_t value, uint8_t shown) {
    avr->data[t->cs_reg] = was;
    m->storing = true;
    cbp_io_store(avr, t->cs_reg, value);
    m->storing = false;
    avr->data[t->cs_reg] = shown;
}

static void cbp_power_after_prr(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    cbp_power_reduction *m = param;
    for (int i = 0; i < m->count; i++) {
        cbp_timer_power *t = &m->timers[i];
        if (t->prr != addr) continue;
        bool off = value & (1u << t->prr_bit);
        if (off == t->off) continue;
        t->off = off;
        if (off) {
            for (int r = 0; r < t->register_count; r++) t->kept[r] = avr->data[t->registers[r]];
            uint8_t clock = avr->data[t->cs_reg];
            cbp_clock_store(avr, m, t, clock, (uint8_t)(clock & ~t->cs_mask), clock);
            continue;
        }
        // Powered up: what was written meanwhile is undone, the clock goes last.
        for (int r = 0; r < t->register_count; r++) {
            uint16_t reg = t->registers[r];
            if (reg == t->cs_reg) {
                cbp_clock_store(avr, m, t, (uint8_t)(t->kept[r] & ~t->cs_mask), t->kept[r], t->kept[r]);
            } else if (avr->data[reg] != t->kept[r]) {
                m->storing = true;
                cbp_io_store(avr, reg, t->kept[r]);
                m->storing = false;
            }
        }
    }
}

// A write to the clock register while the timer is off must not start it
// (the write itself is undone at power-up).
static void cbp_power_after_clock(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    cbp_power_reduction *m = param;
    if (m->storing) return;
    for (int i = 0; i < m->count; i++) {
        cbp_timer_power *t = &m->timers[i];
        if (t->cs_reg == addr && t->off) cbp_clock_store(avr, m, t, value, (uint8_t)(value & ~t->cs_mask), value);
    }
}

static void cbp_add_register(cbp_timer_power *t, uint16_t reg) {
    if (!reg || reg == t->cs_reg || t->register_count >= CBP_TIMER_REGISTERS - 1) return;
    for (int r = 0; r < t->register_count; r++) if (t->registers[r] == reg) return;
    t->registers[t->register_count++] = reg;
}

static void cbp_power_reduction_reset(avr_io_t *io) {
    cbp_power_reduction *m = (cbp_power_reduction *)io;
    for (int i = 0; i < m->count; i++) m->timers[i].off = false;  // PRR resets to 0
}

bool cbp_power_reduction_install(avr_t *avr) {
    cbp_power_reduction *m = calloc(1, sizeof *m);
    if (!m) return false;
    bool prr1 = false;
    for (avr_io_t *io = avr->io_port; io && m->count < CBP_POWER_TIMERS; io = io->next) {
        if (!io->kind || strcmp(io->kind, "timer") != 0) continue;
        avr_timer_t *p = (avr_timer_t *)io;
        cbp_timer_power t = {.timer = p, .cs_reg = p->cs[0].reg};
        if (!t.cs_reg || !cbp_prr_bit(p->name, &t.prr, &t.prr_bit)) continue;
        for (int c = 0; c < 4; c++) {
            if (p->cs[c].reg == t.cs_reg) t.cs_mask |= (uint8_t)(p->cs[c].mask << p->cs[c].bit);
        }
        // Its registers: high bytes before low ones (a 16-bit write goes through TEMP), the clock last.
        for (int w = 0; w < 4; w++) cbp_add_register(&t, p->wgm[w].reg);
        cbp_add_register(&t, p->r_tcnth);
        cbp_add_register(&t, p->r_tcnt);
        cbp_add_register(&t, p->r_icrh);
        cbp_add_register(&t, p->r_icr);
        for (int c = 0; c < AVR_TIMER_COMP_COUNT; c++) {
            cbp_add_register(&t, p->comp[c].com.reg);
            cbp_add_register(&t, p->comp[c].r_ocrh);
            cbp_add_register(&t, p->comp[c].r_ocr);
            cbp_add_register(&t, p->comp[c].interrupt.enable.reg);
        }
        cbp_add_register(&t, p->overflow.enable.reg);
        t.registers[t.register_count++] = t.cs_reg;
        prr1 = prr1 || t.prr == CBP_PRR1;
        m->timers[m->count++] = t;
    }
    m->io.kind = "power-reduction";
    m->io.reset = cbp_power_reduction_reset;
    cbp_register_module(avr, &m->io);
    bool ok = cbp_io_after(avr, CBP_PRR0, cbp_power_after_prr, m) && (!prr1 || cbp_io_after(avr, CBP_PRR1, cbp_power_after_prr, m));
    for (int i = 0; i < m->count; i++) ok = ok && cbp_io_after(avr, m->timers[i].cs_reg, cbp_power_after_clock, m);
    return ok;
}
