#include "tilt_status.h"

#include <string.h>

#include "tilt_baud.h"
#include "tilt_frames.h"
#include "tilt_sensor.h"

/* Tables live in flash on the AVR (read with pgm_read_byte), in memory elsewhere. */
#ifdef __AVR__
#include <avr/pgmspace.h>
#define TILT_FLASH PROGMEM
#define tilt_flash_byte(address) pgm_read_byte(address)
#else
#define TILT_FLASH
#define tilt_flash_byte(address) (*(const uint8_t *)(address))
#endif

/* 5x7 glyphs, one byte per column, LSB = top row: ' ' '-' '.' '0'-'9' 'A'-'Z'. */
static const uint8_t glyphs[][5] TILT_FLASH = {
    {0x00, 0x00, 0x00, 0x00, 0x00}, {0x08, 0x08, 0x08, 0x08, 0x08}, {0x00, 0x60, 0x60, 0x00, 0x00},
    {0x3E, 0x51, 0x49, 0x45, 0x3E}, {0x00, 0x42, 0x7F, 0x40, 0x00}, {0x42, 0x61, 0x51, 0x49, 0x46},
    {0x21, 0x41, 0x45, 0x4B, 0x31}, {0x18, 0x14, 0x12, 0x7F, 0x10}, {0x27, 0x45, 0x45, 0x45, 0x39},
    {0x3C, 0x4A, 0x49, 0x49, 0x30}, {0x01, 0x71, 0x09, 0x05, 0x03}, {0x36, 0x49, 0x49, 0x49, 0x36},
    {0x06, 0x49, 0x49, 0x29, 0x1E},
    {0x7E, 0x11, 0x11, 0x11, 0x7E}, {0x7F, 0x49, 0x49, 0x49, 0x36}, {0x3E, 0x41, 0x41, 0x41, 0x22},
    {0x7F, 0x41, 0x41, 0x22, 0x1C}, {0x7F, 0x49, 0x49, 0x49, 0x41}, {0x7F, 0x09, 0x09, 0x09, 0x01},
    {0x3E, 0x41, 0x49, 0x49, 0x7A}, {0x7F, 0x08, 0x08, 0x08, 0x7F}, {0x00, 0x41, 0x7F, 0x41, 0x00},
    {0x20, 0x40, 0x41, 0x3F, 0x01}, {0x7F, 0x08, 0x14, 0x22, 0x41}, {0x7F, 0x40, 0x40, 0x40, 0x40},
    {0x7F, 0x02, 0x0C, 0x02, 0x7F}, {0x7F, 0x04, 0x08, 0x10, 0x7F}, {0x3E, 0x41, 0x41, 0x41, 0x3E},
    {0x7F, 0x09, 0x09, 0x09, 0x06}, {0x3E, 0x41, 0x51, 0x21, 0x5E}, {0x7F, 0x09, 0x19, 0x29, 0x46},
    {0x46, 0x49, 0x49, 0x49, 0x31}, {0x01, 0x01, 0x7F, 0x01, 0x01}, {0x3F, 0x40, 0x40, 0x40, 0x3F},
    {0x1F, 0x20, 0x40, 0x20, 0x1F}, {0x3F, 0x40, 0x38, 0x40, 0x3F}, {0x63, 0x14, 0x08, 0x14, 0x63},
    {0x07, 0x08, 0x70, 0x08, 0x07}, {0x61, 0x51, 0x49, 0x45, 0x43},
};

static uint8_t glyph_index(char c) {
    if (c >= 'A' && c <= 'Z') return (uint8_t)(13 + c - 'A');
    if (c >= '0' && c <= '9') return (uint8_t)(3 + c - '0');
    if (c == '-') return 1;
    if (c == '.') return 2;
    return 0;
}

static const char line_title[] TILT_FLASH = "TILTSERIAL ";
static const char line_waiting[] TILT_FLASH = "WAITING FOR HOST";
static const char line_no_sensor[] TILT_FLASH = "NO SENSOR";
/* The I2C pins of the board it was built for, by its chip (every variant of
 * a chip names its TWI pins alike): the Mega's 20/21; every ATmega32U4 board's
 * (Leonardo, Micro, Pro Micro, which have no A4/A5 there) 2/3; else A4/A5. */
#if defined(__AVR_ATmega2560__) || defined(__AVR_ATmega1280__)
static const char line_check[] TILT_FLASH = "CHECK SDA 20 SCL 21";
#elif defined(__AVR_ATmega32U4__)
static const char line_check[] TILT_FLASH = "CHECK SDA 2 SCL 3";
#else
static const char line_check[] TILT_FLASH = "CHECK SDA A4 SCL A5";
#endif
static const char line_at[] TILT_FLASH = " AT ";
static const char line_id[] TILT_FLASH = "ID ";
static const char name_6050[] TILT_FLASH = "MPU6050";
static const char name_6500[] TILT_FLASH = "MPU6500";
static const char name_9250[] TILT_FLASH = "MPU9250";
static const char name_9255[] TILT_FLASH = "MPU9255";
/* The sketch's line (tilt_baud.h): its rate, or on a chip with USB that it is
 * USB, whose rate is ignored; on the host, the native board model's 115200. */
#define TILT_STRING(x) #x
#define TILT_NUMBER(x) TILT_STRING(x)
#ifdef USBCON
static const char line_serial[] TILT_FLASH = "USB SERIAL";
#else
static const char line_serial[] TILT_FLASH = TILT_NUMBER(TILT_SERIAL_BAUD) " BAUD";
#endif
static const char name_sh1106[] TILT_FLASH = "SH1106";
static const char name_ssd1306[] TILT_FLASH = "SSD1306";
static const char name_128x64[] TILT_FLASH = " 128X64";
static const char name_128x32[] TILT_FLASH = " 128X32";
static const char line_set[] TILT_FLASH = " SET";
static const char line_question[] TILT_FLASH = "IS THE BORDER WHOLE";

#define LINE_MAX 21u /* 21 glyphs fill the 128 columns */

/* Appends a flash string; returns the new length. */
static uint8_t append_flash(char *text, uint8_t length, const char *flash) {
    for (char c; length < LINE_MAX && (c = (char)tilt_flash_byte(flash)) != 0; flash++) text[length++] = c;
    return length;
}

static uint8_t append_number(char *text, uint8_t length, uint8_t value) {
    char digits[3];
    uint8_t n = 0;
    do {
        digits[n++] = (char)('0' + value % 10u);
        value = (uint8_t)(value / 10u);
    } while (value != 0 && n < sizeof digits);
    while (n > 0 && length < LINE_MAX) text[length++] = digits[--n];
    return length;
}

static char hex_digit(uint8_t nibble) { return (char)(nibble < 10u ? '0' + nibble : 'A' + (nibble - 10)); }

static uint8_t append_hex(char *text, uint8_t length, uint8_t value) {
    if (length < LINE_MAX) text[length++] = hex_digit((uint8_t)(value >> 4));
    if (length < LINE_MAX) text[length++] = hex_digit((uint8_t)(value & 15u));
    return length;
}

/* "MPU6500 AT 68", or "ID 98 AT 68" for a part that only answers like one;
 * nothing for the kit the sketch was written for (an MPU-6050 at 0x68), whose
 * screen stays as it always was. */
static uint8_t sensor_line(const tilt_status_info *info, char *text) {
    uint8_t length;
    tilt_sensor_kind kind = tilt_sensor_kind_of(info->sensor_who_am_i);
    if (kind == TILT_SENSOR_MPU6050 && info->sensor_address == TILT_SENSOR_ADDRESS_LOW) return 0;
    switch (kind) {
    case TILT_SENSOR_MPU6050: length = append_flash(text, 0, name_6050); break;
    case TILT_SENSOR_MPU6500: length = append_flash(text, 0, name_6500); break;
    case TILT_SENSOR_MPU9250: length = append_flash(text, 0, name_9250); break;
    case TILT_SENSOR_MPU9255: length = append_flash(text, 0, name_9255); break;
    case TILT_SENSOR_MISSING: return 0;
    default: length = append_hex(text, append_flash(text, 0, line_id), info->sensor_who_am_i); break;
    }
    return append_hex(text, append_flash(text, length, line_at), info->sensor_address);
}

/* The controller's name, with the glass size when `sized` or for the
 * 128x32 module (the one size that is not the usual). */
static uint8_t display_name(uint8_t kind, bool sized, char *text, uint8_t length) {
    if (kind == TILT_DISPLAY_SH1106_128X64) length = append_flash(text, length, name_sh1106);
    else length = append_flash(text, length, name_ssd1306);
    if (kind == TILT_DISPLAY_SSD1306_128X32) return append_flash(text, length, name_128x32);
    return sized ? append_flash(text, length, name_128x64) : length;
}

/* Line 7: the sensor part (unless the usual one), then the display when it
 * is the 1.3" modules' SH1106 or a kind `tiltserial setup` stored ("SH1106
 * SET"; "MPU6500 AT 68 SH1106" is 20 of the 21 characters, so beside such a
 * sensor a stored kind goes without " SET": the host's parts line says it).
 * Line 5 stays the serial line, the one the host must match. */
static uint8_t parts_line(const tilt_status_info *info, char *text) {
    uint8_t length = info->sensor_ok ? sensor_line(info, text) : 0;
    if (!info->display_stored && info->display_kind != TILT_DISPLAY_SH1106_128X64) return length;
    if (length > 0) text[length++] = ' ';
    length = display_name(info->display_kind, false, text, length);
    return info->display_stored && length + 4u <= LINE_MAX ? append_flash(text, length, line_set) : length;
}

/* The text on `page` (length 0 = blank). */
static uint8_t line_for(const tilt_status_info *info, uint8_t page, char *text) {
    uint8_t length = 0;
    switch (page) {
    case 1:
        length = append_flash(text, 0, line_title);
        length = append_number(text, length, info->fw_major);
        if (length < LINE_MAX) text[length++] = '.';
        length = append_number(text, length, info->fw_minor);
        if (length < LINE_MAX) text[length++] = '.';
        return append_number(text, length, info->fw_patch);
    case 3: return append_flash(text, 0, info->sensor_ok ? line_waiting : line_no_sensor);
    case 5: return append_flash(text, 0, info->sensor_ok ? line_serial : line_check);
    case 7: return parts_line(info, text);
    default: return 0;
    }
}

/* Draws `length` glyphs of `text` centred on the span (columns first..first+count). */
static void draw_line(const char *text, uint8_t length, uint8_t first, uint8_t count, uint8_t *out) {
    if (length == 0) return;
    uint8_t width = (uint8_t)(length * 6u - 1u); /* 5 columns + 1 gap per glyph */
    uint8_t left = (uint8_t)((128u - width) / 2u);
    for (uint8_t i = 0; i < count; i++) {
        uint8_t x = (uint8_t)(first + i);
        if (x < left || x >= left + width) continue;
        uint8_t offset = (uint8_t)(x - left), column = (uint8_t)(offset % 6u);
        if (column == 5) continue;
        out[i] = tilt_flash_byte(&glyphs[glyph_index(text[offset / 6u])][column]);
    }
}

/* A 128x32 module is driven with the 128x64 set-up, so its glass shows
 * every other row (docs/display.md): its text is drawn twice as tall, a line
 * over two pages, so each glyph row shows once and the lines stay readable.
 * Pages 2k and 2k + 1 carry the line the 128x64 screen has on page 2k + 1. */
static bool tall(uint8_t display_kind) { return display_kind == TILT_DISPLAY_SSD1306_128X32; }

/* Four rows of a glyph column, each doubled: bit i goes to bits 2i and 2i + 1. */
static uint8_t doubled(uint8_t four) {
    uint8_t out = 0;
    for (uint8_t i = 0; i < 4; i++)
        if (four & (1u << i)) out |= (uint8_t)(3u << (2u * i));
    return out;
}

static void make_tall(uint8_t page, uint8_t count, uint8_t *out) {
    for (uint8_t i = 0; i < count; i++) out[i] = doubled((page & 1u) ? (uint8_t)(out[i] >> 4) : (uint8_t)(out[i] & 0x0Fu));
}

void tilt_status_span(const tilt_status_info *info, uint8_t page, uint8_t first, uint8_t count, uint8_t *out) {
    memset(out, 0, count);
    char text[LINE_MAX];
    bool twice = tall(info->display_kind);
    draw_line(text, line_for(info, twice ? (uint8_t)(page | 1u) : page, text), first, count, out);
    if (twice) make_tall(page, count, out);
}

void tilt_status_pattern_span(uint8_t display_kind, uint8_t page, uint8_t first, uint8_t count, uint8_t *out) {
    memset(out, 0, count);
    char text[LINE_MAX];
    bool twice = tall(display_kind);
    uint8_t line_page = twice ? (uint8_t)(page | 1u) : page;
    if (line_page == 3) draw_line(text, display_name(display_kind, true, text, 0), first, count, out);
    if (line_page == 5) draw_line(text, append_flash(text, 0, line_question), first, count, out);
    if (twice) make_tall(page, count, out);
    for (uint8_t i = 0; i < count; i++) {
        uint8_t x = (uint8_t)(first + i);
        if (x == 0 || x == 127) out[i] = 0xFF;
        if (page == 0) out[i] |= twice ? 0x03 : 0x01; /* row 0 (rows 0 and 1: a 128x32 glass shows row 1) */
        if (page == 7) out[i] |= 0x80;               /* row 63 */
    }
}
