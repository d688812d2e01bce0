/* What the board does with the host's frames and with time: the firmware's
 * behaviour apart from its parts (serial port, sensor, display), so the host's
 * native board model runs this same code. The caller performs the actions. */
#ifndef TILT_BOARD_H
#define TILT_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "tilt_frames.h"
#include "tilt_render.h"

#ifdef __cplusplus
extern "C" {
#endif

/** No OFFSETS for this long: the host is gone, show the status screen. */
#define TILT_HOST_TIMEOUT_MS 1000UL

typedef struct {
    /* Sensor settings: the rate rule's divider and the rate HELLO announces. */
    uint8_t divider;
    uint16_t sample_rate_hz;
    uint8_t accel_fs, gyro_fs;
    /* The host's view. */
    bool host_live;         /* OFFSETS seen within TILT_HOST_TIMEOUT_MS */
    uint32_t last_offsets_ms;
    tilt_view wanted;       /* the latest OFFSETS */
    tilt_drawer drawer;     /* the latest DRAWER */
    tilt_pin pins[TILT_PIN_SLOTS]; /* the pin table PIN frames fill */
    uint8_t pin_changes;    /* counts changes to the pin table (wraps): a page drawn with other pins differs */
    bool redraw;            /* something on screen is out of date */
    bool sync;              /* the host asked for READY (SYNC 1); off at every HELLO */
    bool idle_ready_owed;   /* an idle READY is due when the board falls idle (set by SYNC 1 and each latch) */
    bool pattern;           /* the display test pattern shows (DISPLAY try) until OFFSETS or another DISPLAY */
    tilt_display_frame display; /* the latest valid DISPLAY, for the caller to carry out */
} tilt_board;

/** What the caller must do after a payload. */
typedef enum {
    TILT_BOARD_NOTHING = 0,
    TILT_BOARD_SEND_PONG,   /* with the token */
    TILT_BOARD_SEND_HELLO,  /* HOST_HELLO */
    TILT_BOARD_RECONFIGURE, /* CONFIGURE: apply the new settings to the sensor, then send HELLO */
    TILT_BOARD_SEND_PARTS,  /* DESCRIBE (or a DISPLAY it cannot carry out): say which parts were found where (PARTS) */
    TILT_BOARD_DISPLAY,     /* DISPLAY: carry out `display` (store or clear the choice, begin the display), then send PARTS */
} tilt_board_action;

/** Power-on state: the default rate (by the rate rule) and full scales, no host, redraw. */
void tilt_board_init(tilt_board *board, uint16_t rate_hz, uint8_t accel_fs, uint8_t gyro_fs);

/** Handles one checked payload (type first, as tilt_rx_push delivers it) at
 *  board time `now_ms`. OFFSETS update the view (redraw when it changed or the
 *  host just came back); DRAWER and PIN update the scene (redraw when what is
 *  drawn changed); CONFIGURE applies the rate rule (4..1000 Hz, nearest
 *  1000 / (1 + d)) and the full scales (0..3; others are ignored). Anything
 *  else (unknown types, wrong lengths, the board's own types) is skipped.
 *  SYNC sets `sync` (any non-zero byte: on); DESCRIBE asks for PARTS.
 *  A valid DISPLAY (op TILT_DISPLAY_TRY..END, a known kind for TRY and STORE)
 *  is kept in `display`, turns the test pattern on (TRY) or off (the others)
 *  and asks the caller to carry it out; an invalid one changes nothing and
 *  is answered with PARTS alone. OFFSETS turn the test pattern off. */
tilt_board_action tilt_board_handle(tilt_board *board, const uint8_t *payload, uint8_t length,
                                    uint32_t now_ms, uint32_t *pong_token);

/** Closed drawer, nothing dragged, no pins: the caller does this at every
 *  HELLO, and a host timeout does it too, so a host always starts from a clean
 *  scene (docs/protocol.md). Redraws a live screen that showed any of it. */
void tilt_board_reset_scene(tilt_board *board);

/** What the caller does at every HELLO it sends: the scene reset
 *  (tilt_board_reset_scene) and frame sync off until the next SYNC 1. */
void tilt_board_hello_sent(tilt_board *board);

/** True once, when the host has sent no OFFSETS for TILT_HOST_TIMEOUT_MS (then
 *  the scene is reset and the screen redrawn). */
bool tilt_board_host_timed_out(tilt_board *board, uint32_t now_ms);

/** The HELLO for the current settings. `status`: TILT_STATUS_* bits. */
void tilt_board_hello(const tilt_board *board, uint8_t fw_major, uint8_t fw_minor, uint8_t fw_patch,
                      uint16_t tile_id, uint8_t status, tilt_hello *out);

#ifdef __cplusplus
}
#endif
#endif
