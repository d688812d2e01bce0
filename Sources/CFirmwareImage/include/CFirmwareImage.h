// CFirmwareImage: a simavr core made from a flash image (an Intel HEX file read in
// Swift), for sketches exported from the Arduino IDE as .hex.
#pragma once

#include <stdint.h>
#include <stddef.h>

struct avr_t;

/// Creates and initialises an `mmcu` core at `frequency` and copies `size`
/// bytes of `image` into flash from address 0, set up like cbp_avr_create
/// (no wall-clock sleeping, no UART console echo or poll-sleep, simavr's log
/// on stderr only with TILTSIM_SIMAVR_LOG). On failure returns NULL and
/// writes a one-line reason into `error`.
struct avr_t *cbp_avr_create_from_image(const uint8_t *image, uint32_t size, const char *mmcu,
                                        uint32_t frequency, char *error, size_t error_size);
