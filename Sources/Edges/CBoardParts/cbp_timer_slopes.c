// Dual-slope timer modes as the chip counts them. In phase correct and phase
// and frequency correct PWM a timer counts up to TOP and back down, so its
// overflow (TOV, at BOTTOM) comes once every 2·TOP ticks. simavr 1.6 counts
// every PWM mode one way (TOV every TOP + 1 ticks: TimerOne's callback ran at
// twice its rate) and has no entry at all for some (Timer0/2 modes 1 and 5,
// Timer1 modes 1-3, 10 and 11): those ran with a period of one prescaler
// tick, so a sketch that enabled TOIE2 in Arduino's own Timer2 set-up got an
// interrupt every 64 cycles, and every sketch's Timer1 and Timer2 (mode 1
// since init()) cost simavr a callback every 64 cycles.
//
// The missing modes get simavr's entries for a TOP of their own (0xFF,
// 0x1FF, 0x3FF, OCRnA, ICRn); after simavr has configured a dual-slope mode
// (`cbp_io_after`: simavr's write first), the period is doubled and the
// pending overflow moved to match. Compare matches stay once a period, on
// the way up; TCNT still reads as counting up over the whole period.
#include "CBoardParts.h"

#include <string.h>

#include <sim_avr.h>
#include <sim_io.h>
#include <sim_cycle_timers.h>
#include <avr_ioport.h>
#include <avr_timer.h>

static bool cbp_sixteen_bit(const avr_timer_t *p) { return p->wgm_op[0].size == 16; }

static bool cbp_dual_slope(const avr_timer_t *p, uint8_t mode) {
    if (cbp_sixteen_bit(p)) return (mode >= 1 && mode <= 3) || (mode >= 8 && mode <= 11);
    return mode == 1 || mode == 5;
}

// The overflow's pending cycle timer: the timer's own slot due last (its
// compare matches are due before it, or not armed at all).
static avr_cycle_timer_slot_p cbp_overflow_slot(avr_t *avr, avr_timer_t *p) {
    avr_cycle_timer_slot_p found = NULL;
    for (avr_cycle_timer_slot_p s = avr->cycle_timers.timer; s; s = s->next) {
        if (s->param == p && (!found || s->when > found->when)) found = s;
    }
    return found;
}

static void cbp_timer_slopes_after_write(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr; (void)value;
    avr_timer_t *p = param;
    uint8_t mode = avr_regbit_get_array(avr, p->wgm, ARRAY_SIZE(p->wgm));
    if (!cbp_dual_slope(p, mode) || p->cs_div_value == 0 || p->tov_top == 0) return;
    if (p->ext_clock_flags & (AVR_TIMER_EXTCLK_FLAG_TN | AVR_TIMER_EXTCLK_FLAG_AS2)) return;  // clocked from a pin or a crystal: left as simavr has it
    avr_cycle_count_t single = (avr_cycle_count_t)p->cs_div_value * (p->tov_top + 1);
    avr_cycle_count_t dual = 2 * (avr_cycle_count_t)p->cs_div_value * p->tov_top;
    if (p->tov_cycles != single) return;  // not just configured by simavr (or already doubled)
    p->tov_cycles = dual;
    avr_cycle_timer_slot_p slot = cbp_overflow_slot(avr, p);
    if (!slot) return;
    avr_cycle_count_t due = p->tov_base + dual;
    avr_cycle_timer_register(avr, due > avr->cycle ? due - avr->cycle : 1, slot->timer, p);
}

void cbp_timer_slopes_install(avr_t *avr) {
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "timer") != 0) continue;
        avr_timer_t *p = (avr_timer_t *)io;
        if (!p->wgm[0].reg) continue;
        bool sixteen = cbp_sixteen_bit(p);
        const avr_timer_wgm_t fc8 = AVR_TIMER_WGM_FCPWM8(), fc9 = AVR_TIMER_WGM_FCPWM9(), fc10 = AVR_TIMER_WGM_FCPWM10();
        const avr_timer_wgm_t ocr = AVR_TIMER_WGM_OCPWM(), icr = AVR_TIMER_WGM_ICPWM();
        if (sixteen) {
            if (p->wgm_op[1].kind == avr_timer_wgm_none) p->wgm_op[1] = fc8;
            if (p->wgm_op[2].kind == avr_timer_wgm_none) p->wgm_op[2] = fc9;
            if (p->wgm_op[3].kind == avr_timer_wgm_none) p->wgm_op[3] = fc10;
            if (p->wgm_op[8].kind == avr_timer_wgm_none) p->wgm_op[8] = icr;
            if (p->wgm_op[9].kind == avr_timer_wgm_none) p->wgm_op[9] = ocr;
            if (p->wgm_op[10].kind == avr_timer_wgm_none) p->wgm_op[10] = icr;
            if (p->wgm_op[11].kind == avr_timer_wgm_none) p->wgm_op[11] = ocr;
        } else if (p->wgm_op[0].size == 8) {
            if (p->wgm_op[1].kind == avr_timer_wgm_none) p->wgm_op[1] = fc8;
            if (p->wgm_op[5].kind == avr_timer_wgm_none) p->wgm_op[5] = ocr;
        } else {
            continue;
        }
        // Every write simavr reconfigures the timer on: its mode and clock bits, and OCRnA (a TOP).
        for (int i = 0; i < 4; i++) {
            if (p->wgm[i].reg) cbp_io_after(avr, p->wgm[i].reg, cbp_timer_slopes_after_write, p);
            if (p->cs[i].reg) cbp_io_after(avr, p->cs[i].reg, cbp_timer_slopes_after_write, p);
        }
        for (int c = 0; c < AVR_TIMER_COMP_COUNT; c++) {
            if (p->comp[c].r_ocr) cbp_io_after(avr, p->comp[c].r_ocr, cbp_timer_slopes_after_write, p);
        }
    }
}

bool cbp_pin_timer_driven(avr_t *avr, char port, uint8_t bit) {
    avr_ioport_t *pins = cbp_ioport(avr, port);
    if (!pins) return false;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (!io->kind || strcmp(io->kind, "timer") != 0) continue;
        avr_timer_t *p = (avr_timer_t *)io;
        bool pwm = p->mode.kind == avr_timer_wgm_pwm || p->mode.kind == avr_timer_wgm_fast_pwm || p->mode.kind == avr_timer_wgm_fc_pwm;
        for (int comp = 0; comp < AVR_TIMER_COMP_COUNT; comp++) {
            avr_regbit_t pin = p->comp[comp].com_pin;
            if (pin.reg != pins->r_port || pin.bit != bit) continue;
            uint8_t com = avr_regbit_get(avr, p->comp[comp].com);
            // A toggle outside the PWM modes reaches the pin (simavr writes PORT); the rest does not.
            if (com != 0 && (pwm || com != avr_timer_com_toggle)) return true;
        }
    }
    return false;
}
