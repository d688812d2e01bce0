/* Wire protocol v1 frames (docs/protocol.md): layouts, encoders and decoders,
 * and a receiver that turns a byte stream into checked payloads. */
#ifndef TILT_FRAMES_H
#define TILT_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILT_PROTOCOL_VERSION 1u
/** Largest payload: type + body + CRC. */
#define TILT_MAX_PAYLOAD 64u
/** Largest encoded frame without its delimiter (COBS adds one byte up to 254). */
#define TILT_MAX_ENCODED (TILT_MAX_PAYLOAD + 1u)
/** Largest frame on the wire, delimiter included. */
#define TILT_MAX_WIRE (TILT_MAX_ENCODED + 1u)

enum tilt_type {
    TILT_HELLO = 0x01,
    TILT_SAMPLE = 0x02,
    TILT_PONG = 0x03,
    TILT_READY = 0x04,
    TILT_PARTS = 0x05,
    TILT_OFFSETS = 0x10,
    TILT_HOST_HELLO = 0x11,
    TILT_PING = 0x12,
    TILT_CONFIGURE = 0x13,
    TILT_DRAWER = 0x14,
    TILT_PIN = 0x15,
    TILT_SYNC = 0x16,
    TILT_DESCRIBE = 0x17,
    TILT_DISPLAY = 0x18,
};

enum tilt_body_length {
    TILT_HELLO_LEN = 13,
    TILT_SAMPLE_LEN = 18,
    TILT_PONG_LEN = 4,
    TILT_READY_LEN = 4,
    TILT_PARTS_LEN = 5,
    TILT_OFFSETS_LEN = 10,
    TILT_HOST_HELLO_LEN = 1,
    TILT_PING_LEN = 4,
    TILT_CONFIGURE_LEN = 4,
    TILT_DRAWER_LEN = 11,
    TILT_PIN_LEN = 6,
    TILT_SYNC_LEN = 1,
    TILT_DESCRIBE_LEN = 1,
    TILT_DISPLAY_LEN = 2,
};

/** A SAMPLE on the wire: type, body, CRC, COBS's code byte, delimiter. */
#define TILT_SAMPLE_WIRE (1u + TILT_SAMPLE_LEN + 2u + 1u + 1u)

/** HELLO status bits. */
#define TILT_STATUS_SENSOR 0x01u
#define TILT_STATUS_DISPLAY 0x02u

/** READY flag bits. */
#define TILT_READY_IDLE 0x01u

/** PARTS display kinds. */
#define TILT_DISPLAY_SSD1306_128X64 0u
#define TILT_DISPLAY_SH1106_128X64 1u  /* the 1.3" modules: 132-column RAM, columns 2..129 shown */
#define TILT_DISPLAY_SSD1306_128X32 2u /* the 0.91" modules: not detectable, chosen (ssd1306_begin_as) */

/** The display's I2C clock (DISPLAY set-clock, PARTS flags bits 2-3):
 *  400 kHz is the SSD1306 datasheet's; many modules take 800 kHz or 1 MHz
 *  with short wires (docs/hardware.md), an opt-in; 100 kHz (standard mode)
 *  is where a display that does not answer at 400 kHz falls back to (weak
 *  pull-ups, long wires). The sensor stays at 400. */
#define TILT_DISPLAY_CLOCK_400KHZ 0u
#define TILT_DISPLAY_CLOCK_800KHZ 1u
#define TILT_DISPLAY_CLOCK_1MHZ 2u
#define TILT_DISPLAY_CLOCK_100KHZ 3u
#define TILT_DISPLAY_CLOCK_LAST TILT_DISPLAY_CLOCK_100KHZ

/** PARTS flag bits: the display kind came from the board's EEPROM (a stored
 *  choice, `tiltserial setup`) rather than detection; the test pattern shows;
 *  bits 2-3: the display's clock in use (TILT_DISPLAY_CLOCK_*; 0 from older
 *  firmware, which runs it at 400 kHz); bit 4: that clock is not the one
 *  stored, as the display did not answer at it (or the board cannot make it). */
#define TILT_PARTS_KIND_STORED 0x01u
#define TILT_PARTS_PATTERN 0x02u
#define TILT_PARTS_CLOCK_SHIFT 2u
#define TILT_PARTS_CLOCK_MASK 0x0Cu
#define TILT_PARTS_CLOCK_FELL_BACK 0x10u

/** DISPLAY operations (the frame's first byte). */
#define TILT_DISPLAY_TRY 0u   /* begin the display as `kind` (not stored) and show the test pattern */
#define TILT_DISPLAY_STORE 1u /* store `kind` in EEPROM and begin the display as it; pattern off */
#define TILT_DISPLAY_CLEAR 2u /* forget the stored kind and detect again; pattern off */
#define TILT_DISPLAY_END 3u   /* pattern off, back to the stored kind or detection */
#define TILT_DISPLAY_SET_CLOCK 4u /* store the display's clock (`kind` carries TILT_DISPLAY_CLOCK_*) and begin it at it; pattern off */
/** The highest display kind this firmware knows. */
#define TILT_DISPLAY_KIND_LAST TILT_DISPLAY_SSD1306_128X32

/** DISPLAY: what to do with the display choice (TILT_DISPLAY_TRY..SET_CLOCK)
 *  and the kind (for TRY and STORE) or the clock (for SET_CLOCK). */
typedef struct {
    uint8_t op, kind;
} tilt_display_frame;

/** PARTS: which parts the board found, and where (0 for an absent part's address). */
typedef struct {
    uint8_t sensor_address, sensor_who_am_i;
    uint8_t display_address, display_kind;
    uint8_t flags; /* TILT_PARTS_* bits */
} tilt_parts;

/** OFFSETS flag bits. */
#define TILT_FLAG_FIRED 0x01u
#define TILT_FLAG_ENGAGED 0x02u
#define TILT_FLAG_PAUSED 0x04u

typedef struct {
    uint8_t version, fw_major, fw_minor, fw_patch;
    uint8_t accel_fs, gyro_fs;
    uint16_t sample_rate_hz;
    uint8_t display_width, display_height;
    uint16_t tile_id;
    uint8_t status;
} tilt_hello;

typedef struct {
    uint8_t seq;
    uint32_t time_us; /* low 24 bits are sent */
    uint8_t raw[14];  /* MPU-6050 burst from 0x3B, as read (big-endian int16s) */
} tilt_sample;

typedef struct {
    uint8_t seq;
    uint16_t viewport_x, viewport_y, ribbon_x, ribbon_bottom;
    uint8_t flags;
} tilt_offsets;

typedef struct {
    uint16_t sample_rate_hz;
    uint8_t accel_fs, gyro_fs;
} tilt_configure;

/** "No item" in DRAWER's item fields. */
#define TILT_NO_ITEM 0xFFu

/** DRAWER: the drawer, the dragged item and how many pins are drawn. */
typedef struct {
    uint8_t height, shown;
    int16_t scroll;
    uint8_t current, drag_item;
    int16_t drag_left, drag_top;
    uint8_t pin_count;
} tilt_drawer;

/** PIN: one slot of the pin table. */
typedef struct {
    uint8_t slot, item;
    uint16_t x, y;
} tilt_pin_frame;

/** The body length of a known type, or -1 for a type this version does not know. */
int tilt_body_length(uint8_t type);

/** Wraps `type ‖ body` into a wire frame: appends the CRC (big-endian), COBS-encodes
 *  and appends the 0x00 delimiter. `out` needs TILT_MAX_WIRE bytes. Returns the
 *  wire length, or 0 if the payload would exceed TILT_MAX_PAYLOAD. */
uint8_t tilt_frame_encode(uint8_t type, const uint8_t *body, uint8_t body_len, uint8_t *out);

uint8_t tilt_encode_hello(const tilt_hello *hello, uint8_t *out);
uint8_t tilt_encode_sample(const tilt_sample *sample, uint8_t *out);
uint8_t tilt_encode_pong(uint32_t token, uint8_t *out);
/** READY: `time_us` (low 24 bits sent) and TILT_READY_* flags. */
uint8_t tilt_encode_ready(uint32_t time_us, uint8_t flags, uint8_t *out);
uint8_t tilt_encode_offsets(const tilt_offsets *offsets, uint8_t *out);
uint8_t tilt_encode_host_hello(uint8_t version, uint8_t *out);
uint8_t tilt_encode_ping(uint32_t token, uint8_t *out);
uint8_t tilt_encode_configure(const tilt_configure *configure, uint8_t *out);
uint8_t tilt_encode_drawer(const tilt_drawer *drawer, uint8_t *out);
uint8_t tilt_encode_pin(const tilt_pin_frame *pin, uint8_t *out);
uint8_t tilt_encode_sync(uint8_t mode, uint8_t *out);
uint8_t tilt_encode_parts(const tilt_parts *parts, uint8_t *out);
uint8_t tilt_encode_describe(uint8_t *out);
uint8_t tilt_encode_display(const tilt_display_frame *display, uint8_t *out);

/* Decoders take a checked payload without its CRC (type first, as the receiver
 * delivers it) and return false unless the type and body length match. */
bool tilt_decode_hello(const uint8_t *payload, uint8_t len, tilt_hello *out);
bool tilt_decode_sample(const uint8_t *payload, uint8_t len, tilt_sample *out);
bool tilt_decode_pong(const uint8_t *payload, uint8_t len, uint32_t *token);
bool tilt_decode_ready(const uint8_t *payload, uint8_t len, uint32_t *time_us, uint8_t *flags);
bool tilt_decode_offsets(const uint8_t *payload, uint8_t len, tilt_offsets *out);
bool tilt_decode_host_hello(const uint8_t *payload, uint8_t len, uint8_t *version);
bool tilt_decode_ping(const uint8_t *payload, uint8_t len, uint32_t *token);
bool tilt_decode_configure(const uint8_t *payload, uint8_t len, tilt_configure *out);
bool tilt_decode_drawer(const uint8_t *payload, uint8_t len, tilt_drawer *out);
bool tilt_decode_pin(const uint8_t *payload, uint8_t len, tilt_pin_frame *out);
bool tilt_decode_sync(const uint8_t *payload, uint8_t len, uint8_t *mode);
bool tilt_decode_parts(const uint8_t *payload, uint8_t len, tilt_parts *out);
bool tilt_decode_describe(const uint8_t *payload, uint8_t len);
bool tilt_decode_display(const uint8_t *payload, uint8_t len, tilt_display_frame *out);

typedef enum {
    TILT_RX_NONE = 0,     /* byte taken, no frame ended (or an empty frame) */
    TILT_RX_FRAME,        /* a payload passed COBS, size and CRC checks */
    TILT_RX_OVERSIZE,     /* a frame longer than TILT_MAX_ENCODED was dropped */
    TILT_RX_BAD_COBS,     /* a frame that is not valid COBS was dropped */
    TILT_RX_SHORT,        /* a payload shorter than 3 bytes was dropped */
    TILT_RX_BAD_CRC,      /* a payload whose CRC did not match was dropped */
} tilt_rx_event;

/** A bounded frame receiver: it never holds more than TILT_MAX_ENCODED bytes
 *  and resynchronises on every 0x00. Zero-initialise it (or tilt_rx_reset). */
typedef struct {
    uint8_t buf[TILT_MAX_ENCODED];
    uint8_t len;
    uint8_t overflow;
} tilt_rx;

void tilt_rx_reset(tilt_rx *rx);

/** Feeds one byte. On TILT_RX_FRAME, `*payload` points at `type ‖ body`
 *  (`*len` bytes, CRC stripped) inside the receiver, valid until the next push. */
tilt_rx_event tilt_rx_push(tilt_rx *rx, uint8_t byte, const uint8_t **payload, uint8_t *len);

#ifdef __cplusplus
}
#endif
#endif
