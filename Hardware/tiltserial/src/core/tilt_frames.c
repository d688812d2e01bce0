#include "tilt_frames.h"

#include "tilt_cobs.h"
#include "tilt_crc16.h"

int tilt_body_length(uint8_t type) {
    switch (type) {
    case TILT_HELLO: return TILT_HELLO_LEN;
    case TILT_SAMPLE: return TILT_SAMPLE_LEN;
    case TILT_PONG: return TILT_PONG_LEN;
    case TILT_READY: return TILT_READY_LEN;
    case TILT_PARTS: return TILT_PARTS_LEN;
    case TILT_OFFSETS: return TILT_OFFSETS_LEN;
    case TILT_HOST_HELLO: return TILT_HOST_HELLO_LEN;
    case TILT_PING: return TILT_PING_LEN;
    case TILT_CONFIGURE: return TILT_CONFIGURE_LEN;
    case TILT_DRAWER: return TILT_DRAWER_LEN;
    case TILT_PIN: return TILT_PIN_LEN;
    case TILT_SYNC: return TILT_SYNC_LEN;
    case TILT_DESCRIBE: return TILT_DESCRIBE_LEN;
    case TILT_DISPLAY: return TILT_DISPLAY_LEN;
    default: return -1;
    }
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (uint16_t)p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }

uint8_t tilt_frame_encode(uint8_t type, const uint8_t *body, uint8_t body_len, uint8_t *out) {
    uint8_t payload[TILT_MAX_PAYLOAD];
    if ((unsigned)body_len + 3u > TILT_MAX_PAYLOAD) return 0;
    payload[0] = type;
    for (uint8_t i = 0; i < body_len; i++) payload[1 + i] = body[i];
    uint16_t crc = tilt_crc16(payload, 1u + body_len);
    payload[1 + body_len] = (uint8_t)(crc >> 8); /* the CRC goes big-endian */
    payload[2 + body_len] = (uint8_t)crc;
    size_t n = tilt_cobs_encode(payload, 3u + body_len, out);
    out[n] = 0;
    return (uint8_t)(n + 1);
}

uint8_t tilt_encode_hello(const tilt_hello *h, uint8_t *out) {
    uint8_t b[TILT_HELLO_LEN];
    b[0] = h->version; b[1] = h->fw_major; b[2] = h->fw_minor; b[3] = h->fw_patch;
    b[4] = h->accel_fs; b[5] = h->gyro_fs;
    put16(b + 6, h->sample_rate_hz);
    b[8] = h->display_width; b[9] = h->display_height;
    put16(b + 10, h->tile_id);
    b[12] = h->status;
    return tilt_frame_encode(TILT_HELLO, b, sizeof b, out);
}

uint8_t tilt_encode_sample(const tilt_sample *s, uint8_t *out) {
    uint8_t b[TILT_SAMPLE_LEN];
    b[0] = s->seq;
    b[1] = (uint8_t)s->time_us; b[2] = (uint8_t)(s->time_us >> 8); b[3] = (uint8_t)(s->time_us >> 16);
    for (uint8_t i = 0; i < 14; i++) b[4 + i] = s->raw[i];
    return tilt_frame_encode(TILT_SAMPLE, b, sizeof b, out);
}

uint8_t tilt_encode_pong(uint32_t token, uint8_t *out) {
    uint8_t b[TILT_PONG_LEN];
    put32(b, token);
    return tilt_frame_encode(TILT_PONG, b, sizeof b, out);
}

uint8_t tilt_encode_ready(uint32_t time_us, uint8_t flags, uint8_t *out) {
    uint8_t b[TILT_READY_LEN];
    b[0] = (uint8_t)time_us; b[1] = (uint8_t)(time_us >> 8); b[2] = (uint8_t)(time_us >> 16);
    b[3] = flags;
    return tilt_frame_encode(TILT_READY, b, sizeof b, out);
}

uint8_t tilt_encode_display(const tilt_display_frame *d, uint8_t *out) {
    uint8_t b[TILT_DISPLAY_LEN] = {d->op, d->kind};
    return tilt_frame_encode(TILT_DISPLAY, b, sizeof b, out);
}

uint8_t tilt_encode_sync(uint8_t mode, uint8_t *out) {
    return tilt_frame_encode(TILT_SYNC, &mode, 1, out);
}

uint8_t tilt_encode_parts(const tilt_parts *p, uint8_t *out) {
    uint8_t b[TILT_PARTS_LEN] = {p->sensor_address, p->sensor_who_am_i, p->display_address, p->display_kind, p->flags};
    return tilt_frame_encode(TILT_PARTS, b, sizeof b, out);
}

uint8_t tilt_encode_describe(uint8_t *out) {
    uint8_t zero = 0;
    return tilt_frame_encode(TILT_DESCRIBE, &zero, 1, out);
}

uint8_t tilt_encode_offsets(const tilt_offsets *o, uint8_t *out) {
    uint8_t b[TILT_OFFSETS_LEN];
    b[0] = o->seq;
    put16(b + 1, o->viewport_x); put16(b + 3, o->viewport_y);
    put16(b + 5, o->ribbon_x); put16(b + 7, o->ribbon_bottom);
    b[9] = o->flags;
    return tilt_frame_encode(TILT_OFFSETS, b, sizeof b, out);
}

uint8_t tilt_encode_host_hello(uint8_t version, uint8_t *out) {
    return tilt_frame_encode(TILT_HOST_HELLO, &version, 1, out);
}

uint8_t tilt_encode_ping(uint32_t token, uint8_t *out) {
    uint8_t b[TILT_PING_LEN];
    put32(b, token);
    return tilt_frame_encode(TILT_PING, b, sizeof b, out);
}

uint8_t tilt_encode_configure(const tilt_configure *c, uint8_t *out) {
    uint8_t b[TILT_CONFIGURE_LEN];
    put16(b, c->sample_rate_hz);
    b[2] = c->accel_fs; b[3] = c->gyro_fs;
    return tilt_frame_encode(TILT_CONFIGURE, b, sizeof b, out);
}

uint8_t tilt_encode_drawer(const tilt_drawer *d, uint8_t *out) {
    uint8_t b[TILT_DRAWER_LEN];
    b[0] = d->height; b[1] = d->shown;
    put16(b + 2, (uint16_t)d->scroll);
    b[4] = d->current; b[5] = d->drag_item;
    put16(b + 6, (uint16_t)d->drag_left); put16(b + 8, (uint16_t)d->drag_top);
    b[10] = d->pin_count;
    return tilt_frame_encode(TILT_DRAWER, b, sizeof b, out);
}

uint8_t tilt_encode_pin(const tilt_pin_frame *p, uint8_t *out) {
    uint8_t b[TILT_PIN_LEN];
    b[0] = p->slot; b[1] = p->item;
    put16(b + 2, p->x); put16(b + 4, p->y);
    return tilt_frame_encode(TILT_PIN, b, sizeof b, out);
}

/* The body, if the payload has the type and its exact length. */
static const uint8_t *body_of(const uint8_t *payload, uint8_t len, uint8_t type, uint8_t body_len) {
    if (len != 1u + body_len || payload[0] != type) return 0;
    return payload + 1;
}

bool tilt_decode_hello(const uint8_t *payload, uint8_t len, tilt_hello *h) {
    const uint8_t *b = body_of(payload, len, TILT_HELLO, TILT_HELLO_LEN);
    if (!b) return false;
    h->version = b[0]; h->fw_major = b[1]; h->fw_minor = b[2]; h->fw_patch = b[3];
    h->accel_fs = b[4]; h->gyro_fs = b[5];
    h->sample_rate_hz = get16(b + 6);
    h->display_width = b[8]; h->display_height = b[9];
    h->tile_id = get16(b + 10);
    h->status = b[12];
    return true;
}

bool tilt_decode_sample(const uint8_t *payload, uint8_t len, tilt_sample *s) {
    const uint8_t *b = body_of(payload, len, TILT_SAMPLE, TILT_SAMPLE_LEN);
    if (!b) return false;
    s->seq = b[0];
    s->time_us = b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16;
    for (uint8_t i = 0; i < 14; i++) s->raw[i] = b[4 + i];
    return true;
}

bool tilt_decode_pong(const uint8_t *payload, uint8_t len, uint32_t *token) {
    const uint8_t *b = body_of(payload, len, TILT_PONG, TILT_PONG_LEN);
    if (!b) return false;
    *token = get32(b);
    return true;
}

bool tilt_decode_ready(const uint8_t *payload, uint8_t len, uint32_t *time_us, uint8_t *flags) {
    const uint8_t *b = body_of(payload, len, TILT_READY, TILT_READY_LEN);
    if (!b) return false;
    *time_us = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
    *flags = b[3];
    return true;
}

bool tilt_decode_parts(const uint8_t *payload, uint8_t len, tilt_parts *p) {
    const uint8_t *b = body_of(payload, len, TILT_PARTS, TILT_PARTS_LEN);
    if (!b) return false;
    p->sensor_address = b[0];
    p->sensor_who_am_i = b[1];
    p->display_address = b[2];
    p->display_kind = b[3];
    p->flags = b[4];
    return true;
}

bool tilt_decode_describe(const uint8_t *payload, uint8_t len) {
    return body_of(payload, len, TILT_DESCRIBE, TILT_DESCRIBE_LEN) != 0;
}

bool tilt_decode_display(const uint8_t *payload, uint8_t len, tilt_display_frame *d) {
    const uint8_t *b = body_of(payload, len, TILT_DISPLAY, TILT_DISPLAY_LEN);
    if (!b) return false;
    d->op = b[0];
    d->kind = b[1];
    return true;
}

bool tilt_decode_sync(const uint8_t *payload, uint8_t len, uint8_t *mode) {
    const uint8_t *b = body_of(payload, len, TILT_SYNC, TILT_SYNC_LEN);
    if (!b) return false;
    *mode = b[0];
    return true;
}

bool tilt_decode_offsets(const uint8_t *payload, uint8_t len, tilt_offsets *o) {
    const uint8_t *b = body_of(payload, len, TILT_OFFSETS, TILT_OFFSETS_LEN);
    if (!b) return false;
    o->seq = b[0];
    o->viewport_x = get16(b + 1); o->viewport_y = get16(b + 3);
    o->ribbon_x = get16(b + 5); o->ribbon_bottom = get16(b + 7);
    o->flags = b[9];
    return true;
}

bool tilt_decode_host_hello(const uint8_t *payload, uint8_t len, uint8_t *version) {
    const uint8_t *b = body_of(payload, len, TILT_HOST_HELLO, TILT_HOST_HELLO_LEN);
    if (!b) return false;
    *version = b[0];
    return true;
}

bool tilt_decode_ping(const uint8_t *payload, uint8_t len, uint32_t *token) {
    const uint8_t *b = body_of(payload, len, TILT_PING, TILT_PING_LEN);
    if (!b) return false;
    *token = get32(b);
    return true;
}

bool tilt_decode_configure(const uint8_t *payload, uint8_t len, tilt_configure *c) {
    const uint8_t *b = body_of(payload, len, TILT_CONFIGURE, TILT_CONFIGURE_LEN);
    if (!b) return false;
    c->sample_rate_hz = get16(b);
    c->accel_fs = b[2]; c->gyro_fs = b[3];
    return true;
}

bool tilt_decode_drawer(const uint8_t *payload, uint8_t len, tilt_drawer *d) {
    const uint8_t *b = body_of(payload, len, TILT_DRAWER, TILT_DRAWER_LEN);
    if (!b) return false;
    d->height = b[0]; d->shown = b[1];
    d->scroll = (int16_t)get16(b + 2);
    d->current = b[4]; d->drag_item = b[5];
    d->drag_left = (int16_t)get16(b + 6); d->drag_top = (int16_t)get16(b + 8);
    d->pin_count = b[10];
    return true;
}

bool tilt_decode_pin(const uint8_t *payload, uint8_t len, tilt_pin_frame *p) {
    const uint8_t *b = body_of(payload, len, TILT_PIN, TILT_PIN_LEN);
    if (!b) return false;
    p->slot = b[0]; p->item = b[1];
    p->x = get16(b + 2); p->y = get16(b + 4);
    return true;
}

void tilt_rx_reset(tilt_rx *rx) {
    rx->len = 0;
    rx->overflow = 0;
}

tilt_rx_event tilt_rx_push(tilt_rx *rx, uint8_t byte, const uint8_t **payload, uint8_t *len) {
    if (byte != 0) {
        if (rx->len < TILT_MAX_ENCODED) rx->buf[rx->len++] = byte;
        else rx->overflow = 1;
        return TILT_RX_NONE;
    }
    uint8_t n = rx->len, overflow = rx->overflow;
    tilt_rx_reset(rx);
    if (overflow) return TILT_RX_OVERSIZE;
    if (n == 0) return TILT_RX_NONE;
    int decoded = tilt_cobs_decode(rx->buf, n, rx->buf);
    if (decoded < 0) return TILT_RX_BAD_COBS;
    if (decoded < 3) return TILT_RX_SHORT;
    /* The CRC over a whole valid payload, CRC bytes included, is zero. */
    if (tilt_crc16(rx->buf, (size_t)decoded) != 0) return TILT_RX_BAD_CRC;
    *payload = rx->buf;
    *len = (uint8_t)(decoded - 2);
    return TILT_RX_FRAME;
}
