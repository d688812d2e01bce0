#include "tilt_board.h"

#include <string.h>

#include "tilt_rate.h"

static void set_rate(tilt_board *board, uint16_t rate_hz) {
    board->divider = tilt_rate_divider(rate_hz);
    board->sample_rate_hz = tilt_rate_hz(board->divider);
}

void tilt_board_init(tilt_board *board, uint16_t rate_hz, uint8_t accel_fs, uint8_t gyro_fs) {
    memset(board, 0, sizeof *board);
    set_rate(board, rate_hz);
    board->accel_fs = accel_fs;
    board->gyro_fs = gyro_fs;
    tilt_board_reset_scene(board);
    board->redraw = true;
}

void tilt_board_reset_scene(tilt_board *board) {
    const tilt_drawer *d = &board->drawer;
    bool shown = d->shown != 0 || d->drag_item != TILT_NO_ITEM || d->pin_count != 0;
    memset(&board->drawer, 0, sizeof board->drawer);
    board->drawer.current = TILT_NO_ITEM;
    board->drawer.drag_item = TILT_NO_ITEM;
    memset(board->pins, 0, sizeof board->pins);
    board->pin_changes++;
    if (shown && board->host_live) board->redraw = true;
}

void tilt_board_hello_sent(tilt_board *board) {
    tilt_board_reset_scene(board);
    board->sync = false;
}

static void set_pin(tilt_board *board, const tilt_pin_frame *pin) {
    if (pin->slot >= TILT_PIN_SLOTS) return;
    tilt_pin *slot = &board->pins[pin->slot];
    if (slot->item == pin->item && slot->x == pin->x && slot->y == pin->y) return;
    if (pin->slot < board->drawer.pin_count) board->redraw = true;
    slot->item = pin->item;
    slot->x = pin->x;
    slot->y = pin->y;
    board->pin_changes++;
}

tilt_board_action tilt_board_handle(tilt_board *board, const uint8_t *payload, uint8_t length,
                                    uint32_t now_ms, uint32_t *pong_token) {
    tilt_offsets offsets;
    tilt_configure configure;
    tilt_drawer drawer;
    tilt_pin_frame pin;
    tilt_display_frame display;
    uint8_t version, mode;
    if (tilt_decode_offsets(payload, length, &offsets)) {
        tilt_view view = {offsets.viewport_x, offsets.viewport_y, offsets.ribbon_x, offsets.ribbon_bottom};
        if (!board->host_live || memcmp(&view, &board->wanted, sizeof view) != 0) board->redraw = true;
        board->wanted = view;
        if (board->pattern) board->redraw = true;
        board->pattern = false;
        board->host_live = true;
        board->last_offsets_ms = now_ms;
        return TILT_BOARD_NOTHING;
    }
    if (tilt_decode_drawer(payload, length, &drawer)) {
        if (memcmp(&drawer, &board->drawer, sizeof drawer) != 0) board->redraw = true;
        board->drawer = drawer;
        return TILT_BOARD_NOTHING;
    }
    if (tilt_decode_pin(payload, length, &pin)) {
        set_pin(board, &pin);
        return TILT_BOARD_NOTHING;
    }
    if (tilt_decode_sync(payload, length, &mode)) {
        board->sync = mode != 0;
        board->idle_ready_owed = board->sync;
        return TILT_BOARD_NOTHING;
    }
    if (tilt_decode_ping(payload, length, pong_token)) return TILT_BOARD_SEND_PONG;
    if (tilt_decode_host_hello(payload, length, &version)) return TILT_BOARD_SEND_HELLO;
    if (tilt_decode_describe(payload, length)) return TILT_BOARD_SEND_PARTS;
    if (tilt_decode_display(payload, length, &display)) {
        bool needs_kind = display.op == TILT_DISPLAY_TRY || display.op == TILT_DISPLAY_STORE;
        if (display.op > TILT_DISPLAY_SET_CLOCK || (needs_kind && display.kind > TILT_DISPLAY_KIND_LAST)
            || (display.op == TILT_DISPLAY_SET_CLOCK && display.kind > TILT_DISPLAY_CLOCK_LAST))
            return TILT_BOARD_SEND_PARTS;
        board->display = display;
        board->pattern = display.op == TILT_DISPLAY_TRY;
        board->redraw = true;
        return TILT_BOARD_DISPLAY;
    }
    if (tilt_decode_configure(payload, length, &configure)) {
        set_rate(board, configure.sample_rate_hz);
        if (configure.accel_fs <= 3u) board->accel_fs = configure.accel_fs;
        if (configure.gyro_fs <= 3u) board->gyro_fs = configure.gyro_fs;
        return TILT_BOARD_RECONFIGURE;
    }
    return TILT_BOARD_NOTHING;
}

bool tilt_board_host_timed_out(tilt_board *board, uint32_t now_ms) {
    if (!board->host_live || now_ms - board->last_offsets_ms <= TILT_HOST_TIMEOUT_MS) return false;
    tilt_board_reset_scene(board);
    board->host_live = false;
    board->redraw = true;
    return true;
}

void tilt_board_hello(const tilt_board *board, uint8_t fw_major, uint8_t fw_minor, uint8_t fw_patch,
                      uint16_t tile_id, uint8_t status, tilt_hello *out) {
    out->version = TILT_PROTOCOL_VERSION;
    out->fw_major = fw_major;
    out->fw_minor = fw_minor;
    out->fw_patch = fw_patch;
    out->accel_fs = board->accel_fs;
    out->gyro_fs = board->gyro_fs;
    out->sample_rate_hz = board->sample_rate_hz;
    out->display_width = TILT_DISPLAY_WIDTH;
    out->display_height = TILT_DISPLAY_HEIGHT;
    out->tile_id = tile_id;
    out->status = status;
}
