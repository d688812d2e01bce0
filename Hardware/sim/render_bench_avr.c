/* AVR side of `make render-bench`: renders 10 frames of one view with the
 * firmware's tilt_render_span in the sketch's 31-column spans from PROGMEM art,
 * then stops (cli + sleep), so the simavr runner can count the cycles.
 * The view comes from -DVIEW_VX/VY/RX/RB. */
#include <avr/interrupt.h>
#include <avr/sleep.h>

#include "../tiltserial/assets.h"
#include "../tiltserial/src/core/tilt_render.h"

static uint8_t read_flash(const uint8_t *address) { return pgm_read_byte(address); }
static const tilt_art art = {asset_tile, TILE_WIDTH, TILE_HEIGHT, asset_ribbon_drawn, asset_ribbon_lit,
                             RIBBON_WIDTH, RIBBON_HEIGHT, read_flash};
volatile uint8_t sink;

int main(void) {
    uint8_t out[31];
    /* Read through volatile so the compiler cannot specialise the renderer for
     * one constant view (the firmware's views arrive at run time). */
    static volatile uint16_t input[4] = {VIEW_VX, VIEW_VY, VIEW_RX, VIEW_RB};
    tilt_view view = {input[0], input[1], input[2], input[3]};
    for (uint8_t frame = 0; frame < 10; frame++)
        for (uint8_t page = 0; page < 8; page++)
            for (uint8_t column = 0; column < 128; column += 31) {
                uint8_t count = (uint8_t)(128 - column < 31 ? 128 - column : 31);
                tilt_render_span(&art, &view, page, column, count, out);
                sink = out[0];
            }
    cli();
    sleep_mode();
    return 0;
}
