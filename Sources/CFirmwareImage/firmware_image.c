// CFirmwareImage: a core from a flash image (see CFirmwareImage.h).
#include "CFirmwareImage.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <sim_avr.h>
#include <avr_uart.h>

static void cbp_image_sleep_none(avr_t *avr, avr_cycle_count_t how_long) {
    // Pacing is the caller's job (as in cbp_avr_create).
    (void)avr; (void)how_long;
}

static void cbp_image_logger(avr_t *avr, const int level, const char *format, va_list ap) {
    (void)avr;
    (void)level;
    static int enabled = -1;
    if (enabled < 0) enabled = getenv("TILTSIM_SIMAVR_LOG") != NULL;
    if (enabled) vfprintf(stderr, format, ap);
}

avr_t *cbp_avr_create_from_image(const uint8_t *image, uint32_t size, const char *mmcu,
                                 uint32_t frequency, char *error, size_t error_size) {
    avr_global_logger_set(cbp_image_logger);
    if (size == 0) {
        snprintf(error, error_size, "the firmware image is empty");
        return NULL;
    }
    avr_t *avr = avr_make_mcu_by_name(mmcu);
    if (!avr) {
        snprintf(error, error_size, "simavr does not know the MCU %s", mmcu);
        return NULL;
    }
    avr_init(avr);
    if (size > (uint32_t)avr->flashend + 1) {
        // avr_loadcode would abort the process.
        snprintf(error, error_size, "the firmware needs %u bytes of flash, the %s has %u",
                 size, mmcu, avr->flashend + 1);
        avr_terminate(avr);
        free(avr);
        return NULL;
    }
    avr_loadcode(avr, (uint8_t *)image, size, 0);
    avr->codeend = size;  // as avr_load_firmware sets it (no data section in a HEX image)
    avr->frequency = frequency;
    avr->sleep = cbp_image_sleep_none;
    avr->log = LOG_NONE;
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    return avr;
}
