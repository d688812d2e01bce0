/* AVR side of `make render-bench`: renders 10 frames of one view with the
 * firmware's renderer in the sketch's 31-column spans from PROGMEM art, then
 * stops (cli + sleep), so the simavr runner can count the cycles.
 * The view comes from -DVIEW_VX/VY/RX/RB; with -DSCENE=1 the drawer is open
 * with an item dragged and all 32 pins in view (the most the board draws). */
#include <avr/interrupt.h>
#include <avr/sleep.h>

#include "../tiltserial/assets.h"
#include "../tiltserial/src/core/tilt_render.h"

static uint8_t read_flash(const uint8_t *address) { return pgm_read_byte(address); }
static const tilt_art art = {asset_tile, TILE_WIDTH, TILE_HEIGHT, asset_ribbon_drawn, asset_ribbon_lit,
                             RIBBON_WIDTH, RIBBON_HEIGHT, read_flash, asset_items_lit, asset_items_drawn, ITEM_COUNT};
volatile uint8_t sink;

int main(void) {
    uint8_t out[31];
    /* Read through volatile so the compiler cannot specialise the renderer for
     * one constant view (the firmware's views arrive at run time). */
    static volatile uint16_t input[4] = {VIEW_VX, VIEW_VY, VIEW_RX, VIEW_RB};
    tilt_view view = {input[0], input[1], input[2], input[3]};
#if SCENE
    static tilt_pin pins[TILT_PIN_SLOTS];
    for (uint8_t i = 0; i < TILT_PIN_SLOTS; i++) {
        pins[i].item = (uint8_t)(i % ITEM_COUNT);
        pins[i].x = (uint16_t)(view.viewport_x + 8 + (i % 8) * 16);
        pins[i].y = (uint16_t)(view.viewport_y + 8 + (i / 8) * 16);
    }
    static volatile int16_t scroll = 3;
    const tilt_scene scene = {22, 22, scroll, 3, 3, 47, 30, TILT_PIN_SLOTS, pins};
#endif
    for (uint8_t frame = 0; frame < 10; frame++)
        for (uint8_t page = 0; page < 8; page++)
            for (uint8_t column = 0; column < 128; column += 31) {
                uint8_t count = (uint8_t)(128 - column < 31 ? 128 - column : 31);
#if SCENE
                tilt_render_scene_span(&art, &view, &scene, page, column, count, out);
#else
                tilt_render_span(&art, &view, page, column, count, out);
#endif
                sink = out[0];
            }
    cli();
    sleep_mode();
    return 0;
}
