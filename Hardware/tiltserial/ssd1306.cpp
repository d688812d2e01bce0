#include "ssd1306.h"

#include "i2c.h"
#include <avr/pgmspace.h>

#include "config.h"
#include "src/core/tilt_frames.h"

/* The set-up both controllers share, then each one's own: the SSD1306's
 * addressing modes and scroll-off are not SH1106 commands (it would read
 * their parameter bytes as commands), and the SH1106's DC-DC converter (0xAD)
 * is not an SSD1306 command. The charge pump goes to both (init_sh1106). */
static const uint8_t init_common[] PROGMEM = {
    0xAE,       /* display off */
    0xD5, 0x80, /* clock divide / oscillator */
    0xA8, 0x3F, /* multiplex ratio: 64 rows */
    0xD3, 0x00, /* display offset 0 (start line stays at its reset value 0) */
    0xA1,       /* column 127 mapped to SEG0: the usual module orientation */
    0xC8,       /* COM scan remapped (top row at the header pins' side) */
    0xDA, 0x12, /* COM pins: alternative configuration, 128x64 */
    0x81, 0xCF, /* contrast */
    0xD9, 0xF1, /* pre-charge period */
    0xDB, 0x40, /* VCOMH deselect level */
    0xA4,       /* show RAM content */
    0xA6,       /* normal (not inverted) */
};
static const uint8_t init_ssd1306[] PROGMEM = {
    0x8D, 0x14, /* charge pump on */
    0x2E,       /* scrolling off */
    0xAF,       /* display on */
};
/* The 128x32 module is driven with the 128x64 set-up on purpose: with 64
 * rows and the alternative COM pins its 32 lines (COM0..COM31) show every
 * other row, so the whole 128x64 picture appears squeezed 2:1 with no change
 * to the renderer or the page pipeline (docs/display.md). Each row is then
 * lit half as long as with its own 32-row set-up: full contrast makes up
 * some of that. */
static const uint8_t init_128x32[] PROGMEM = {
    0x81, 0xFF, /* contrast: full */
};
static const uint8_t init_sh1106[] PROGMEM = {
    0x40,       /* start line 0: an SSD1306 set-up sent before (a wrong guess that
                   `tiltserial setup` tries) leaves it at 63, its window command's
                   0x7F being the SH1106's "start line 63" */
    0xAD, 0x8B, /* DC-DC converter on */
    0x8D, 0x14, /* the SSD1306's charge pump: an SSD1306 wrongly stored as an
                   SH1106 then shows its picture two columns off, as the docs
                   say, instead of staying dark after a reset. An SH1106 ignores
                   0x8D and takes 0x14 as a column address, which every page
                   write sets again (U8g2's SH1106 set-up sends it too). */
    0xAF,       /* display on */
};

/* The SSD1306's horizontal addressing: the cursor runs along a page and on
 * to the next, so a frame needs one window command instead of eight page
 * commands (48 bus bytes and seven transactions less a frame). */
static const uint8_t horizontal_commands[] PROGMEM = {
    0x20, 0x00,       /* horizontal addressing mode */
    0x21, 0x00, 0x7F, /* columns 0..127 */
    0x22, 0x00, 0x07, /* pages 0..7 */
};

uint8_t ssd1306_address;
uint8_t ssd1306_kind;
bool ssd1306_horizontal;
/* Column where a page's picture starts in page addressing: 2 on the SH1106,
 * whose 128-wide glass shows RAM columns 2..129 of 132. */
static uint8_t first_column;

static bool write_commands_P(const uint8_t *commands_P, uint8_t count) {
    uint8_t commands[sizeof init_common];
    memcpy_P(commands, commands_P, count);
    return i2c_write(ssd1306_address, 0x00, commands, count);
}

/* Writes a byte into RAM (page 0, column 0) in read-modify-write, so that
 * 0xEE puts the cursor back on it, then reads it back after a D/C=1 control
 * byte. An SH1106 returns a dummy byte, then the RAM byte; an SSD1306 answers
 * I2C reads with its status byte (0x00 or 0x40: bits 0-5 clear), never this
 * value. 0xE0/0xEE are no-ops to an SSD1306. Cheap: 17 bytes on the bus, once. */
static bool is_sh1106(void) {
    static const uint8_t probe = 0xA5;
    static const uint8_t mark[4] = {0xB0, 0x00, 0x10, 0xE0}; /* page 0, column 0, read-modify-write */
    static const uint8_t end = 0xEE;
    uint8_t back[2];
    if (!i2c_write(ssd1306_address, 0x00, mark, sizeof mark)) return false;
    if (!i2c_write(ssd1306_address, 0x40, &probe, 1)) return false;
    if (!i2c_write(ssd1306_address, 0x00, &end, 1)) return false;
    if (!i2c_read_registers(ssd1306_address, 0x40, back, sizeof back)) return false;
    /* back[1] per the datasheet (one dummy read after setting the column);
     * back[0] too, for a part that answers without it. */
    return back[1] == probe || back[0] == probe;
}

static bool find_display(void) {
    if (i2c_probe(DISPLAY_ADDRESS_LOW)) ssd1306_address = DISPLAY_ADDRESS_LOW;
    else if (i2c_probe(DISPLAY_ADDRESS_HIGH)) ssd1306_address = DISPLAY_ADDRESS_HIGH;
    else return false;
    return true;
}

/* The display found: its set-up as `kind`. */
static bool init_as(uint8_t kind) {
    if (kind != TILT_DISPLAY_SH1106_128X64 && kind != TILT_DISPLAY_SSD1306_128X32) kind = TILT_DISPLAY_SSD1306_128X64;
    ssd1306_kind = kind;
    ssd1306_horizontal = false;
    first_column = kind == TILT_DISPLAY_SH1106_128X64 ? 2 : 0;
    if (!write_commands_P(init_common, sizeof init_common)) return false;
    if (kind == TILT_DISPLAY_SH1106_128X64) return write_commands_P(init_sh1106, sizeof init_sh1106);
    if (kind == TILT_DISPLAY_SSD1306_128X32 && !write_commands_P(init_128x32, sizeof init_128x32)) return false;
    if (!write_commands_P(init_ssd1306, sizeof init_ssd1306)) return false;
    ssd1306_horizontal = write_commands_P(horizontal_commands, sizeof horizontal_commands);
    return ssd1306_horizontal;
}

bool ssd1306_begin_as(uint8_t kind) {
    return find_display() && init_as(kind);
}

bool ssd1306_begin(void) {
    return find_display() && init_as(is_sh1106() ? TILT_DISPLAY_SH1106_128X64 : TILT_DISPLAY_SSD1306_128X64);
}

/* Sent from here while the loop goes on: kept until the next command. */
static uint8_t page_command[6];

void ssd1306_write_page_async(uint8_t page, uint8_t column, const uint8_t *data, uint8_t count) {
    uint8_t length;
    if (ssd1306_horizontal) {
        page_command[0] = 0x21; /* columns `column`..127: the column cursor to `column` */
        page_command[1] = (uint8_t)(column & 0x7F);
        page_command[2] = 0x7F;
        page_command[3] = 0x22; /* pages `page`..7: the page cursor to `page` */
        page_command[4] = (uint8_t)(page & 7);
        page_command[5] = 0x07;
        length = 6;
    } else {
        uint8_t ram_column = (uint8_t)(first_column + (column & 0x7F));
        page_command[0] = (uint8_t)(0xB0 | (page & 7));        /* page start address */
        page_command[1] = (uint8_t)(ram_column & 0x0F);        /* column low nibble */
        page_command[2] = (uint8_t)(0x10 | (ram_column >> 4)); /* column high nibble */
        length = 3;
    }
    if (count == 0) i2c_write_async(ssd1306_address, 0x00, page_command, length);
    else i2c_write_async_then(ssd1306_address, 0x00, page_command, length, 0x40, data, count);
}

void ssd1306_write_data_async(const uint8_t *data, uint8_t count) {
    i2c_write_async(ssd1306_address, 0x40, data, count);
}

bool ssd1306_chain_data_async(const uint8_t *data, uint8_t count) { return i2c_chain_async(0x40, data, count); }
