// A 128x64 SSD1306 on the TWI bus, after the Solomon Systech datasheet
// (rev 1.1, section 10 "Command descriptions"). Our own model rather than
// simavr 1.6's ssd1306_virt, which aborts the process on a Co=1 control byte,
// takes the one-byte start-line commands for two-byte ones, honours the
// column commands only in page mode, parses scrolling without moving pixels,
// and powers up in horizontal addressing (the datasheet says page mode).
//
// The model keeps GDDRAM and the registers; what the glass shows is computed
// from them on the Swift side (SSD1306Glass). Continuous scrolling moves
// pixels on simulated time: horizontal steps rotate GDDRAM columns (the part
// itself rewrites its RAM, which is why the datasheet asks for a rewrite after
// 0x2E), the diagonal scrolls' vertical part offsets rows of the vertical
// scroll area. Steps are applied lazily from the core's cycle counter (before
// any byte the bus delivers and when the state is read), so they land at the
// same simulated time in every run.
//
// The same part models the SH1106 (kind CBP_DISPLAY_SH1106, after the Sino
// Wealth datasheet V2.x): 132 x 64 RAM, of which columns 2..129 drive the
// 128 SEG lines a 1.3" module wires (SEG2..SEG129, so the window is the same
// with or without the column remap 0xA1); page addressing only (0x20/0x21/
// 0x22, the charge pump 0x8D and the scroll commands are not its commands:
// one-byte no-ops, their parameter bytes then read as commands, as on the
// part); DC-DC 0xAD; read-modify-write 0xE0/0xEE; and display RAM readable
// over I2C after a D/C=1 control byte, behind one dummy read (the datasheet's
// "Read Display Data"). The glass window is mirrored into `s.gddram`, so the
// glass model (Swift) is the same for both.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_irq.h>
#include <avr_twi.h>

struct cbp_ssd1306 {
    avr_t *avr;
    uint8_t kind;              // CBP_DISPLAY_*; the 128x32 module's controller is an SSD1306
    // SH1106 only: its 132-column RAM (the glass window is mirrored into s.gddram),
    // the read latch (a read returns it, then loads the byte at the cursor: hence
    // the dummy read) and read-modify-write (0xE0: reads leave the cursor; 0xEE
    // puts it back where 0xE0 found it).
    uint8_t ram[8][CBP_SH1106_COLUMNS];
    uint8_t read_latch;
    bool read_modify_write;
    uint8_t rmw_column;
    avr_irq_t *bus_in, *bus_out;
    uint8_t address;           // 7-bit: 0x3C, or 0x3D with SA0 high
    uint32_t max_scl_hz;       // the fastest SCL it answers at (0: any)
    bool selected;
    bool expect_control;       // next written byte is a control byte
    bool single;               // Co = 1: one byte, then a control byte again
    bool data_mode;            // D/C# of the current control byte
    bool changed;              // since the last snapshot
    // Bus traffic addressed to us since creation (bus-limit figures, issue 19).
    uint64_t bytes_heard;      // address, control and payload bytes
    uint64_t transactions_heard;
    // Cycle of the last bus byte that may have changed the glass (motion to photon, issue 19).
    uint64_t last_change_cycle;
    // Command parser: the command byte and the parameters still to come.
    uint8_t command;
    uint8_t params_needed, params_have;
    uint8_t params[6];
    // Scrolling, in simulated time.
    uint64_t scroll_anchor;    // cycle the step count counts from
    uint32_t steps_applied;    // since the anchor
    cbp_ssd1306_state s;
};

// MARK: Timing

/// One display frame in CPU cycles: Fosc / (D * K * MUX), with K = phase 1 +
/// phase 2 + 50 DCLKs (datasheet 8.3). Fosc is 370 kHz at the reset setting
/// 8; the datasheet gives no table for the others, so each step is taken as
/// 5 % of it (an approximation, stated in docs/emulator.md).
static uint64_t cbp_ssd1306_frame_cycles(const cbp_ssd1306 *d) {
    uint64_t divide = (uint64_t)(d->s.clock & 0x0F) + 1;
    int setting = d->s.clock >> 4;
    uint64_t fosc = 370000ull * (uint64_t)(100 + 5 * (setting - 8)) / 100;
    uint64_t phase1 = d->s.precharge & 0x0F, phase2 = d->s.precharge >> 4;
    if (phase1 == 0) phase1 = 1;  // 0 is invalid
    if (phase2 == 0) phase2 = 1;
    uint64_t k = phase1 + phase2 + 50;
    uint64_t mux = (uint64_t)d->s.multiplex + 1;
    return (uint64_t)d->avr->frequency * divide * k * mux / fosc;
}

static uint32_t cbp_ssd1306_interval_frames(uint8_t code) {
    static const uint16_t frames[8] = { 5, 64, 128, 256, 3, 4, 25, 2 };
    return frames[code & 7];
}

static void cbp_ssd1306_rotate_pages(cbp_ssd1306 *d, uint32_t steps, bool right) {
    uint32_t n = steps % 128;
    if (n == 0) return;
    uint8_t row[128];
    for (int page = d->s.scroll_start_page; page <= d->s.scroll_end_page && page < 8; page++) {
        uint8_t *ram = d->s.gddram + page * 128;
        for (int c = 0; c < 128; c++) {
            int from = right ? (c - (int)n + 128) % 128 : (c + (int)n) % 128;
            row[c] = ram[from];
        }
        memcpy(ram, row, 128);
    }
}

/// Applies the scroll steps due by now.
static void cbp_ssd1306_sync(cbp_ssd1306 *d) {
    if (!d->s.scroll_active) return;
    uint64_t step_cycles = d->s.frame_cycles * cbp_ssd1306_interval_frames(d->s.scroll_interval);
    uint64_t now = d->avr->cycle;
    if (step_cycles == 0 || now < d->scroll_anchor) return;
    uint64_t due = (now - d->scroll_anchor) / step_cycles;
    if (due <= d->steps_applied) return;
    uint32_t steps = (uint32_t)(due - d->steps_applied);
    d->steps_applied = (uint32_t)due;
    d->s.scroll_steps += steps;
    bool right = d->s.scroll_kind == 0x26 || d->s.scroll_kind == 0x29;
    cbp_ssd1306_rotate_pages(d, steps, right);
    bool diagonal = d->s.scroll_kind == 0x29 || d->s.scroll_kind == 0x2A;
    if (diagonal && d->s.vscroll_rows > 0) {
        uint64_t moved = (uint64_t)steps * d->s.scroll_vertical_step;
        d->s.vscroll_offset = (uint8_t)((d->s.vscroll_offset + moved) % d->s.vscroll_rows);
    }
    d->changed = true;
}

/// Frame timing changed: keep the steps taken, count new ones from now.
static void cbp_ssd1306_retime(cbp_ssd1306 *d) {
    cbp_ssd1306_sync(d);
    d->s.frame_cycles = cbp_ssd1306_frame_cycles(d);
    d->scroll_anchor = d->avr->cycle;
    d->steps_applied = 0;
}

// MARK: Commands

/// Parameter bytes that follow each command byte (0 for one-byte commands).
static uint8_t cbp_ssd1306_param_count(uint8_t c) {
    switch (c) {
    case 0x20: case 0x81: case 0x8D: case 0xA8: case 0xD3: case 0xD5: case 0xD9: case 0xDA: case 0xDB:
    case 0xAD: case 0xD6:  // IREF select, zoom (later parts): accepted, ignored
        return 1;
    case 0x21: case 0x22: case 0xA3:
        return 2;
    case 0x29: case 0x2A:
        return 5;
    case 0x26: case 0x27:
        return 6;
    default:
        return 0;
    }
}

/// The SH1106's two-byte commands; all others (its own and unknown ones) are one byte.
static uint8_t cbp_sh1106_param_count(uint8_t c) {
    switch (c) {
    case 0x81: case 0xA8: case 0xAD: case 0xD3: case 0xD5: case 0xD9: case 0xDA: case 0xDB:
        return 1;
    default:
        return 0;
    }
}

static void cbp_sh1106_run(cbp_ssd1306 *d, uint8_t c, const uint8_t *p) {
    cbp_ssd1306_state *s = &d->s;
    if (c <= 0x0F) { s->column = (uint8_t)((s->column & 0xF0) | c); return; }
    if (c <= 0x1F) { s->column = (uint8_t)((s->column & 0x0F) | ((c & 0x0F) << 4)); return; }
    if (c >= 0x40 && c <= 0x7F) { s->start_line = c & 0x3F; return; }
    if (c >= 0xB0 && c <= 0xB7) { s->page = c & 0x07; return; }
    switch (c) {
    case 0x81: s->contrast = p[0]; break;
    case 0xA0: case 0xA1: s->segment_remap = c & 1; break;
    case 0xA4: case 0xA5: s->entire_on = c & 1; break;
    case 0xA6: case 0xA7: s->inverse = c & 1; break;
    case 0xA8: s->multiplex = p[0] & 0x3F; cbp_ssd1306_retime(d); break;
    case 0xAD: s->charge_pump = p[0] & 1; break;  // DC-DC: 0x8B on, 0x8A off
    case 0xAE: case 0xAF: s->display_on = c & 1; break;
    case 0xC0: case 0xC8: s->com_reversed = (c & 0x08) != 0; break;
    case 0xD3: s->offset = p[0] & 0x3F; break;
    case 0xD5: s->clock = p[0]; cbp_ssd1306_retime(d); break;
    case 0xD9: s->precharge = p[0]; cbp_ssd1306_retime(d); break;
    case 0xDA: s->com_pins = p[0] & 0x10; break;  // no left/right remap on the SH1106
    case 0xDB: s->vcomh = p[0]; break;
    case 0xE0: d->read_modify_write = true; d->rmw_column = s->column; break;
    case 0xEE: if (d->read_modify_write) { d->read_modify_write = false; s->column = d->rmw_column; } break;
    default: break;  // 0x30-0x33 pump voltage, 0xE3 NOP, and the SSD1306's own commands
    }
}

static void cbp_ssd1306_run(cbp_ssd1306 *d, uint8_t c, const uint8_t *p) {
    cbp_ssd1306_state *s = &d->s;
    if (c <= 0x0F) { s->column = (uint8_t)((s->column & 0x70) | c); return; }
    if (c <= 0x1F) { s->column = (uint8_t)((s->column & 0x0F) | ((c & 0x07) << 4)); return; }
    if (c >= 0x40 && c <= 0x7F) { s->start_line = c & 0x3F; return; }
    if (c >= 0xB0 && c <= 0xB7) { s->page = c & 0x07; return; }
    switch (c) {
    case 0x20: if ((p[0] & 3) != 3) s->addressing_mode = p[0] & 3; break;
    case 0x21:
        s->column_start = p[0] & 0x7F; s->column_end = p[1] & 0x7F; s->column = s->column_start;
        break;
    case 0x22:
        s->page_start = p[0] & 0x07; s->page_end = p[1] & 0x07; s->page = s->page_start;
        break;
    case 0x26: case 0x27: case 0x29: case 0x2A:
        if (s->scroll_active) break;  // the datasheet forbids changing an active scroll
        s->scroll_kind = c;
        s->scroll_start_page = p[1] & 7;
        s->scroll_interval = p[2] & 7;
        s->scroll_end_page = p[3] & 7;
        s->scroll_vertical_step = (c == 0x29 || c == 0x2A) ? (p[4] & 0x3F) : 0;
        break;
    case 0x2E:
        cbp_ssd1306_sync(d);
        s->scroll_active = 0;
        s->vscroll_offset = 0;
        break;
    case 0x2F:
        if (s->scroll_kind == 0) break;  // nothing set up
        s->scroll_active = 1;
        s->scroll_steps = 0;
        s->vscroll_offset = 0;
        d->scroll_anchor = d->avr->cycle;
        d->steps_applied = 0;
        break;
    case 0xA3: s->vscroll_top = p[0] & 0x3F; s->vscroll_rows = p[1] & 0x7F; break;
    case 0x81: s->contrast = p[0]; break;
    case 0x8D: s->charge_pump = (p[0] & 0x04) != 0; break;
    case 0xA0: case 0xA1: s->segment_remap = c & 1; break;
    case 0xA4: case 0xA5: s->entire_on = c & 1; break;
    case 0xA6: case 0xA7: s->inverse = c & 1; break;
    case 0xA8: if ((p[0] & 0x3F) >= 15) { s->multiplex = p[0] & 0x3F; cbp_ssd1306_retime(d); } break;
    case 0xAE: case 0xAF: s->display_on = c & 1; break;
    case 0xC0: case 0xC8: s->com_reversed = (c & 0x08) != 0; break;
    case 0xD3: s->offset = p[0] & 0x3F; break;
    case 0xD5: s->clock = p[0]; cbp_ssd1306_retime(d); break;
    case 0xD9: s->precharge = p[0]; cbp_ssd1306_retime(d); break;
    case 0xDA: s->com_pins = p[0] & 0x32; break;
    case 0xDB: s->vcomh = p[0]; break;
    default: break;  // 0xE3 NOP and unknown commands
    }
}

/// Whether a command byte may change what the glass shows: all but the write
/// cursor's (column, page, addressing mode and ranges) and NOP.
static bool cbp_ssd1306_command_shows(const cbp_ssd1306 *d, uint8_t c) {
    if (d->kind == CBP_DISPLAY_SH1106 && (c <= 0x3F || c == 0xE0 || c == 0xEE)) return false;
    return !(c <= 0x22 || (c >= 0xB0 && c <= 0xB7) || c == 0xE3);
}

static void cbp_ssd1306_command_byte(cbp_ssd1306 *d, uint8_t byte) {
    if (d->params_needed > d->params_have) {
        d->params[d->params_have++] = byte;
    } else {
        d->command = byte;
        d->params_needed = d->kind == CBP_DISPLAY_SH1106 ? cbp_sh1106_param_count(byte) : cbp_ssd1306_param_count(byte);
        d->params_have = 0;
    }
    if (d->params_have == d->params_needed) {
        if (cbp_ssd1306_command_shows(d, d->command)) d->last_change_cycle = d->avr->cycle;
        if (d->kind == CBP_DISPLAY_SH1106) cbp_sh1106_run(d, d->command, d->params);
        else cbp_ssd1306_run(d, d->command, d->params);
        d->params_needed = d->params_have = 0;
    }
}

/// A GDDRAM byte at the cursor, then the cursor moves as the addressing mode says.
static void cbp_ssd1306_data_byte(cbp_ssd1306 *d, uint8_t byte) {
    cbp_ssd1306_state *s = &d->s;
    uint8_t *cell = &s->gddram[(s->page & 7) * 128 + (s->column & 0x7F)];
    if (*cell != byte) d->last_change_cycle = d->avr->cycle;
    *cell = byte;
    switch (s->addressing_mode) {
    case 0:  // horizontal: along the column range, then the next page of the range
        if (s->column >= s->column_end || s->column >= 127) {
            s->column = s->column_start;
            s->page = (s->page >= s->page_end || s->page >= 7) ? s->page_start : (uint8_t)(s->page + 1);
        } else {
            s->column++;
        }
        break;
    case 1:  // vertical: down the page range, then the next column of the range
        if (s->page >= s->page_end || s->page >= 7) {
            s->page = s->page_start;
            s->column = (s->column >= s->column_end || s->column >= 127) ? s->column_start : (uint8_t)(s->column + 1);
        } else {
            s->page++;
        }
        break;
    default:  // page: along the page, wrapping to column 0 in the same page
        s->column = (uint8_t)((s->column + 1) & 0x7F);
        break;
    }
}

/// An SH1106 data byte: RAM at the cursor (the glass window's copy too), then
/// the cursor moves on along the page. Past column 131 the cursor stops and
/// further bytes are dropped (the datasheet counts up to 131 only).
static void cbp_sh1106_data_byte(cbp_ssd1306 *d, uint8_t byte) {
    cbp_ssd1306_state *s = &d->s;
    if (s->column >= CBP_SH1106_COLUMNS) return;
    d->ram[s->page & 7][s->column] = byte;
    if (s->column >= CBP_SH1106_FIRST_SHOWN && s->column < CBP_SH1106_FIRST_SHOWN + 128) {
        uint8_t *cell = &s->gddram[(s->page & 7) * 128 + (s->column - CBP_SH1106_FIRST_SHOWN)];
        if (*cell != byte) d->last_change_cycle = d->avr->cycle;
        *cell = byte;
    }
    s->column++;
}

/// An SH1106 display-data read: the latch, then the latch loads the byte at
/// the cursor, which moves on unless in read-modify-write.
static uint8_t cbp_sh1106_read_data(cbp_ssd1306 *d) {
    cbp_ssd1306_state *s = &d->s;
    uint8_t out = d->read_latch;
    if (s->column < CBP_SH1106_COLUMNS) {
        d->read_latch = d->ram[s->page & 7][s->column];
        if (!d->read_modify_write) s->column++;
    }
    return out;
}

// MARK: Bus

static void cbp_ssd1306_reply(cbp_ssd1306 *d, uint8_t conditions, uint8_t address, uint8_t data) {
    avr_raise_irq(d->bus_in, avr_twi_irq_msg(conditions, address, data));
}

/// True when the bus runs faster than the module answers at: it misreads the
/// address and does not acknowledge (what a module beyond its clock does).
static bool cbp_ssd1306_too_fast(const cbp_ssd1306 *d) {
    // With the TWI off the master is toggling the pins itself (cbp_soft_i2c.c):
    // far slower than TWBR could say.
    if (d->max_scl_hz == 0 || !cbp_twi_enabled(d->avr)) return false;
    uint16_t rate = cbp_twi_bit_rate(d->avr);
    uint64_t cycles = 16u + 2u * (uint64_t)(rate & 0xFF) * (1u << (2u * (rate >> 8)));
    return (uint64_t)d->avr->frequency > (uint64_t)d->max_scl_hz * cycles;
}

static void cbp_ssd1306_bus(avr_irq_t *irq, uint32_t value, void *context) {
    (void)irq;
    cbp_ssd1306 *d = context;
    cbp_twi_message m = cbp_twi_decode(value);
    if (m.conditions & TWI_COND_STOP) d->selected = false;
    if (m.conditions & TWI_COND_START) {
        d->selected = (m.address >> 1) == d->address && !cbp_ssd1306_too_fast(d);
        d->expect_control = true;
        if (d->selected) {
            cbp_ssd1306_reply(d, TWI_COND_ACK, m.address, 1);
            d->bytes_heard++;
            d->transactions_heard++;
        }
    }
    if (!d->selected) return;
    if (m.conditions & TWI_COND_WRITE) {
        d->bytes_heard++;
        cbp_ssd1306_reply(d, TWI_COND_ACK, m.address, 1);
        cbp_ssd1306_sync(d);
        if (d->expect_control) {
            d->single = (m.data & 0x80) != 0;
            d->data_mode = (m.data & 0x40) != 0;
            d->expect_control = false;
            return;
        }
        if (d->data_mode && d->kind == CBP_DISPLAY_SH1106) cbp_sh1106_data_byte(d, m.data);
        else if (d->data_mode) cbp_ssd1306_data_byte(d, m.data);
        else cbp_ssd1306_command_byte(d, m.data);
        d->changed = true;
        if (d->single) d->expect_control = true;
    }
    if (m.conditions & TWI_COND_READ) {
        // The SH1106 after a D/C=1 control byte: display RAM. Otherwise the
        // status byte, bit 6 set while the display is off (the SSD1306's
        // datasheet, 8.1.5.1: I2C reads return status only).
        uint8_t byte = (d->kind == CBP_DISPLAY_SH1106 && d->data_mode) ? cbp_sh1106_read_data(d)
                                                                        : (d->s.display_on ? 0x00 : 0x40);
        cbp_ssd1306_reply(d, TWI_COND_READ, m.address, byte);
    }
}

// MARK: Life cycle

cbp_ssd1306 *cbp_ssd1306_create(avr_t *avr, uint8_t address) {
    return cbp_ssd1306_create_kind(avr, address, CBP_DISPLAY_SSD1306);
}

cbp_ssd1306 *cbp_ssd1306_create_kind(avr_t *avr, uint8_t address, uint8_t kind) {
    if (kind != CBP_DISPLAY_SSD1306 && kind != CBP_DISPLAY_SH1106 && kind != CBP_DISPLAY_SSD1306_128X32) return NULL;
    cbp_ssd1306 *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->avr = avr;
    d->kind = kind;
    d->address = address;
    d->bus_in = cbp_twi0_irq(avr, CBP_TWI_INPUT);
    d->bus_out = cbp_twi0_irq(avr, CBP_TWI_OUTPUT);
    cbp_ssd1306_power_on(d);
    avr_irq_register_notify(d->bus_out, cbp_ssd1306_bus, d);
    return d;
}

void cbp_ssd1306_destroy(cbp_ssd1306 *d) {
    if (!d) return;
    avr_irq_unregister_notify(d->bus_out, cbp_ssd1306_bus, d);
    free(d);
}

void cbp_ssd1306_power_on(cbp_ssd1306 *d) {
    memset(&d->s, 0, sizeof d->s);
    cbp_ssd1306_state *s = &d->s;
    // Reset values (datasheet section 9 and the command table): display off,
    // page addressing, full ranges, contrast 0x7F, 64 rows, no remaps, COM
    // pins alternative (0x12), clock 0x80, pre-charge 0x22, VCOMH 0x20,
    // charge pump off, vertical scroll area 0/64. GDDRAM powers up
    // undefined on the part; here it is cleared.
    s->addressing_mode = 2;
    s->column_end = 127;
    s->page_end = 7;
    s->contrast = 0x7F;
    s->multiplex = 63;
    s->com_pins = 0x12;
    s->clock = 0x80;
    s->precharge = 0x22;
    s->vcomh = 0x20;
    s->vscroll_rows = 64;
    s->kind = d->kind;
    if (d->kind == CBP_DISPLAY_SH1106) {
        // The SH1106's reset values that differ (datasheet, command table):
        // contrast 0x80, DC-DC on (0xAD 0x8B), clock 0x50, VCOM 0x35; its RAM
        // powers up undefined, cleared here like GDDRAM.
        s->contrast = 0x80;
        s->charge_pump = 1;
        s->clock = 0x50;
        s->vcomh = 0x35;
        memset(d->ram, 0, sizeof d->ram);
    }
    d->read_latch = 0;
    d->read_modify_write = false;
    d->rmw_column = 0;
    s->frame_cycles = cbp_ssd1306_frame_cycles(d);
    d->selected = false;
    d->expect_control = true;
    d->params_needed = d->params_have = 0;
    d->scroll_anchor = d->avr->cycle;
    d->steps_applied = 0;
    d->changed = true;
    d->last_change_cycle = d->avr->cycle;
}

bool cbp_ssd1306_snapshot(cbp_ssd1306 *d, cbp_ssd1306_state *out) {
    cbp_ssd1306_sync(d);
    bool changed = d->changed;
    d->changed = false;
    if (out) *out = d->s;
    return changed;
}

void cbp_ssd1306_peek(cbp_ssd1306 *d, cbp_ssd1306_state *out) {
    cbp_ssd1306_sync(d);  // steps taken here still count as a change for the next snapshot
    if (out) *out = d->s;
}

bool cbp_ssd1306_copy_vram(cbp_ssd1306 *d, uint8_t out[1024]) {
    cbp_ssd1306_sync(d);
    bool changed = d->changed;
    d->changed = false;
    memcpy(out, d->s.gddram, 1024);
    return changed;
}

uint8_t cbp_ssd1306_flags(const cbp_ssd1306 *d, uint8_t *contrast) {
    if (contrast) *contrast = d->s.contrast;
    return (uint8_t)((d->s.display_on ? 1 : 0) | (d->s.inverse ? 2 : 0)
                     | (d->s.segment_remap ? 4 : 0) | (d->s.com_reversed ? 8 : 0));
}

uint64_t cbp_ssd1306_traffic(const cbp_ssd1306 *d, uint64_t *transactions) {
    if (transactions) *transactions = d->transactions_heard;
    return d->bytes_heard;
}

uint64_t cbp_ssd1306_last_change_cycle(const cbp_ssd1306 *d) { return d->last_change_cycle; }

uint8_t cbp_ssd1306_kind(const cbp_ssd1306 *d) { return d->kind; }

int cbp_ssd1306_ram_byte(const cbp_ssd1306 *d, uint8_t page, uint8_t column) {
    if (page > 7) return -1;
    if (d->kind == CBP_DISPLAY_SH1106) return column < CBP_SH1106_COLUMNS ? d->ram[page][column] : -1;
    return column < 128 ? d->s.gddram[page * 128 + column] : -1;
}

void cbp_ssd1306_set_max_clock(cbp_ssd1306 *d, uint32_t hz) { d->max_scl_hz = hz; }
