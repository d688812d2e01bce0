// CBoardParts: thin C glue between simavr and BoardEmulator (see the header).
#include "CBoardParts.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <sim_io.h>
#include <avr_twi.h>
#include <avr_uart.h>
#include <avr_extint.h>
#include <avr_usb.h>
#include <sim_cycle_timers.h>
#include <sim_interrupts.h>

// MARK: Core

static void cbp_sleep_none(avr_t *avr, avr_cycle_count_t how_long) {
    // The caller paces simulated time against the wall clock; simavr must not
    // sleep on its own (it would stall free-running mode).
    (void)avr; (void)how_long;
}

// An AVR ELF at all (which chip it was linked for is BoardEmulator's
// AVRChip, from the vector table cbp_elf_flash_head returns).
static int cbp_check_avr_elf(const char *path, char *error, size_t error_size) {
    unsigned char header[20];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(error, error_size, "cannot open firmware %s: %s", path, strerror(errno));
        return -1;
    }
    ssize_t n = read(fd, header, sizeof header);
    close(fd);
    if (n < (ssize_t)sizeof header || memcmp(header, "\x7f" "ELF", 4) != 0) {
        snprintf(error, error_size, "%s is not an ELF file; pass the .elf built by avr-gcc", path);
        return -1;
    }
    unsigned machine = header[18] | (header[19] << 8);
    if (header[4] != 1 /* ELFCLASS32 */) {
        snprintf(error, error_size, "%s is not an AVR ELF (a %s file); build it with avr-gcc", path, header[4] == 2 ? "64-bit" : "damaged");
        return -1;
    }
    if (machine != 83 /* EM_AVR */) {
        snprintf(error, error_size, "%s is not an AVR ELF (machine %u); build it with avr-gcc", path, machine);
        return -1;
    }
    return 0;
}

static void cbp_firmware_free(elf_firmware_t *fw) {
    free(fw->flash);
    free(fw->eeprom);
    free(fw->fuse);
    free(fw->lockbits);
#if ELF_SYMBOLS
    for (uint32_t i = 0; i < fw->symbolcount; i++) free(fw->symbol[i]);
    free(fw->symbol);
#endif
    free(fw);
}

// simavr logs to stdout (e.g. "Loaded 1030 .text" while reading an ELF),
// which would mix with a tool's own output. Send it to stderr, and only when
// TILTSIM_SIMAVR_LOG is set (for debugging firmware under simavr).
static void cbp_logger(avr_t *avr, const int level, const char *format, va_list ap) {
    (void)avr;
    (void)level;
    static int enabled = -1;
    if (enabled < 0) enabled = getenv("TILTSIM_SIMAVR_LOG") != NULL;
    if (enabled) vfprintf(stderr, format, ap);
}

// simavr polls INT0/INT1 every cycle while the pin is low and its sense
// control is "low level" (ISC = 0, the reset value), even with the interrupt
// disabled: once an MPU-6050's INT line has pulsed, the core ran 4x slower.
// Off, a low-level interrupt fires once per falling edge (simavr's own
// option for this); avr_reset turns it back on, so it is turned off again
// right after every reset.
typedef struct {
    avr_io_t io;  // first member
} cbp_core_hooks;

static avr_cycle_count_t cbp_level_polling_off(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)when;
    (void)param;
    for (uint8_t i = 0; i < EXTINT_COUNT; i++) avr_extint_set_strict_lvl_trig(avr, i, 0);
    return 0;
}

static void cbp_core_hooks_reset(avr_io_t *io) {
    avr_cycle_timer_register(io->avr, 1, cbp_level_polling_off, NULL);
}

/* simavr 1.6 logs a data access beyond RAMEND as a crash and then performs it
 * on avr->data, which holds only RAMEND + 1 bytes: a stray pointer in a sketch
 * wrote into our own heap (the crashing test fixture's store to 0x9000
 * segfaulted the test process when that page was unmapped). The data space is
 * given all 64 KiB a 16-bit address reaches, so such an access stays inside
 * it; simavr still reports the crash and the board halts. */
static bool cbp_pad_data_space(avr_t *avr) {
    uint8_t *data = calloc(1, 0x10000);
    if (!data) return false;
    memcpy(data, avr->data, (size_t)avr->ramend + 1);
    free(avr->data);  // avr_terminate frees the new one
    avr->data = data;
    return true;
}

size_t cbp_avr_data_space(struct avr_t *avr) { return malloc_usable_size(avr->data); }

bool cbp_avr_install_models(avr_t *avr) {
    if (!cbp_pad_data_space(avr)) return false;
    cbp_core_hooks *hooks = calloc(1, sizeof *hooks);
    if (!hooks) return false;
    // Before the bit-banged bus, whose lines it drives, and so its reset runs first.
    if (!cbp_pin_drive_install(avr) || !cbp_twi_install(avr)) {
        free(hooks);
        return false;
    }
    // The TWI's own pins also carry a master that toggles them (cbp_soft_i2c.c).
    bool twi_on_port_d = strcmp(avr->mmcu, "atmega2560") == 0 || strcmp(avr->mmcu, "atmega1280") == 0
                         || strcmp(avr->mmcu, "atmega32u4") == 0;
    if (!(twi_on_port_d ? cbp_soft_i2c_install(avr, 'D', 1, 0) : cbp_soft_i2c_install(avr, 'C', 4, 5))) {
        free(hooks);
        return false;
    }
    // A core with a USB controller (the 32U4) has no UART on its Serial: a host drives its USB.
    if (avr_io_getirq(avr, AVR_IOCTL_USB_GETIRQ(), USB_IRQ_ATTACH) && !cbp_usb_serial_install(avr)) {
        free(hooks);
        return false;
    }
    cbp_uart_timing_install(avr);
    if (!cbp_uart_transmitter_off_install(avr)) {
        free(hooks);
        return false;
    }
    cbp_timer_slopes_install(avr);
    cbp_adc_scale_install(avr);
    cbp_spi_timing_install(avr);
    if (!cbp_extint_level_install(avr) || !cbp_sleep_modes_install(avr) || !cbp_bootloader_install(avr)
        || !cbp_power_reduction_install(avr) || !cbp_eeprom_timing_install(avr) || !cbp_flag_clear_install(avr)
        || !cbp_int_unmask_install(avr) || !cbp_adc_trigger_install(avr)) {
        free(hooks);
        return false;
    }
    hooks->io.kind = "core-hooks";
    hooks->io.reset = cbp_core_hooks_reset;
    cbp_register_module(avr, &hooks->io);
    cbp_level_polling_off(avr, 0, NULL);
    return true;
}

// An initialised `mmcu` core with room for `flash_end` bytes of flash, or NULL
// with the reason (`what` names the firmware in it). avr_loadcode would abort
// the process on a firmware larger than flash, so this checks first, in 64
// bits: an ELF's base (its __vectors symbol) plus its size wrapped in 32 and
// passed, and avr_loadcode's own check wrapped the same way before its memcpy.
static avr_t *cbp_core_new(const char *mmcu, uint64_t flash_end, const char *what, char *error, size_t error_size) {
    avr_t *avr = avr_make_mcu_by_name(mmcu);
    if (!avr) {
        snprintf(error, error_size, "simavr does not know the MCU %s", mmcu);
        return NULL;
    }
    avr_init(avr);
    if (flash_end > (uint64_t)avr->flashend + 1) {
        snprintf(error, error_size, "%s needs %llu bytes of flash, the %s has %u", what, (unsigned long long)flash_end, mmcu,
                 avr->flashend + 1);
        avr_terminate(avr);
        free(avr);
        return NULL;
    }
    return avr;
}

// What both ways of making a core share: the clock, no sleeping of simavr's
// own (the caller paces), no log, and no UART console echo or poll-sleep.
static void cbp_core_configure(avr_t *avr, uint32_t frequency) {
    avr->frequency = frequency;
    avr->sleep = cbp_sleep_none;
    avr->log = LOG_NONE;
    // Every UART (the Mega's four): a sketch polling Serial2's registers must not sleep the process.
    for (char name = '0'; name <= '3'; name++) {
        uint32_t flags = 0;
        if (avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS(name), &flags) < 0) continue;
        flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
        avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS(name), &flags);
    }
}

// An AVR ELF read by simavr (free it with cbp_firmware_free), or NULL with
// the reason in `error`.
static elf_firmware_t *cbp_read_elf(const char *elf_path, char *error, size_t error_size) {
    avr_global_logger_set(cbp_logger);
    if (cbp_check_avr_elf(elf_path, error, error_size) != 0) return NULL;
    // Over-allocate: the library and these headers must agree on ELF_SYMBOLS.
    elf_firmware_t *fw = calloc(1, sizeof(elf_firmware_t) + 256);
    if (!fw) { snprintf(error, error_size, "out of memory"); return NULL; }
    if (elf_read_firmware(elf_path, fw) != 0 || fw->flashsize == 0) {
        snprintf(error, error_size, "cannot read firmware from %s (no code section?)", elf_path);
        cbp_firmware_free(fw);
        return NULL;
    }
    return fw;
}

avr_t *cbp_avr_create(const char *elf_path, const char *mmcu, uint32_t frequency,
                      char *error, size_t error_size) {
    elf_firmware_t *fw = cbp_read_elf(elf_path, error, error_size);
    if (!fw) return NULL;
    // elf_read_firmware clears the struct; Arduino ELFs have no .mmcu section.
    snprintf(fw->mmcu, sizeof fw->mmcu, "%s", mmcu);
    fw->frequency = frequency;

    char what[300];
    snprintf(what, sizeof what, "firmware %s", elf_path);
    avr_t *avr = cbp_core_new(mmcu, (uint64_t)fw->flashbase + fw->flashsize, what, error, error_size);
    if (!avr) {
        cbp_firmware_free(fw);
        return NULL;
    }
    avr_load_firmware(avr, fw);
    cbp_firmware_free(fw);
    cbp_core_configure(avr, frequency);
    if (!cbp_avr_install_models(avr)) {
        snprintf(error, error_size, "out of memory");
        avr_terminate(avr);
        free(avr);
        return NULL;
    }
    return avr;
}

int cbp_elf_flash_head(const char *elf_path, uint8_t *dest, size_t count, char *error, size_t error_size) {
    elf_firmware_t *fw = cbp_read_elf(elf_path, error, error_size);
    if (!fw) return -1;
    // Code linked elsewhere (a bootloader's) has no vector table at 0: none copied.
    size_t copied = fw->flashbase != 0 ? 0 : fw->flashsize < count ? fw->flashsize : count;
    memcpy(dest, fw->flash, copied);
    cbp_firmware_free(fw);
    return (int)copied;
}

avr_t *cbp_avr_create_from_image(const uint8_t *image, uint32_t size, const char *mmcu,
                                 uint32_t frequency, char *error, size_t error_size) {
    avr_global_logger_set(cbp_logger);
    if (size == 0) {
        snprintf(error, error_size, "the firmware image is empty");
        return NULL;
    }
    avr_t *avr = cbp_core_new(mmcu, size, "the firmware", error, error_size);
    if (!avr) return NULL;
    avr_loadcode(avr, (uint8_t *)image, size, 0);
    avr->codeend = size;  // as avr_load_firmware sets it (no data section in a HEX image)
    cbp_core_configure(avr, frequency);
    return avr;
}

// Our modules are calloc'd structs with their avr_io_t first, which
// avr_terminate unlinks and frees none of (it reads each after its dealloc):
// they carry this dealloc as their mark, and cbp_avr_destroy frees them after
// it. A list of their kinds, kept by hand, had missed four of them.
static void cbp_module_mark(avr_io_t *io) { (void)io; }

void cbp_register_module(avr_t *avr, avr_io_t *io) {
    io->dealloc = cbp_module_mark;
    avr_register_io(avr, io);
}

void cbp_avr_destroy(avr_t *avr) {
    if (!avr) return;
    size_t n = 0;
    for (avr_io_t *io = avr->io_port; io; io = io->next) n += io->dealloc == cbp_module_mark;
    avr_io_t **modules = n ? calloc(n, sizeof *modules) : NULL;
    size_t found = 0;
    for (avr_io_t *io = avr->io_port; io && modules; io = io->next) {
        if (io->dealloc == cbp_module_mark) modules[found++] = io;
    }
    avr_terminate(avr);
    for (size_t i = 0; i < found; i++) free(modules[i]);
    free(modules);
    free(avr);
}

// After SEI or RETI the chip runs one instruction before a pending interrupt;
// simavr counts its I flag's edge delay down from -2 at the end of each step,
// so it ran two. A step that ends at -1 is put where the next one would be,
// and the instruction after SEI or RETI is the only one before the interrupt.
int cbp_avr_run_until(avr_t *avr, uint64_t until_cycle) {
    int state = avr->state;
    while (avr->cycle < until_cycle) {
        avr->run(avr);  // avr_run's body, without its call
        if (__builtin_expect(avr->interrupt_state == -1, 0)) avr->interrupt_state = avr_has_pending_interrupts(avr);
        state = avr->state;
        if (state == cpu_Done || state == cpu_Crashed) break;
    }
    return state;
}

uint64_t cbp_avr_cycle(const avr_t *avr) { return avr->cycle; }
uint32_t cbp_avr_frequency(const avr_t *avr) { return avr->frequency; }
int cbp_avr_state(const avr_t *avr) { return avr->state; }
// simavr 1.6's step crashes at a program counter past flash and returns 0 as
// the next one, which its loop stores: a crash leaves the counter at 0 only
// so (an invalid opcode keeps its address, and address 0 holds the reset jump).
bool cbp_avr_crashed_past_flash(const avr_t *avr) { return avr->state == cpu_Crashed && avr->pc == 0; }
void cbp_avr_reset(avr_t *avr) { avr_reset(avr); }

// MARK: IRQs

avr_irq_t *cbp_uart0_irq(avr_t *avr, int which) {
    return avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), which);
}

avr_irq_t *cbp_uart_irq(avr_t *avr, int number, int which) {
    return avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0' + number), which);
}

avr_irq_t *cbp_serial_irq(avr_t *avr, int which) {
    cbp_usb_serial *usb = cbp_usb_serial_find(avr);
    return usb ? cbp_usb_serial_irq(usb, which) : cbp_uart0_irq(avr, which);
}

avr_irq_t *cbp_twi0_irq(avr_t *avr, int which) {
    // Our TWI model's bus (cbp_twi.c); simavr's own TWI irqs go quiet once it is installed.
    avr_irq_t *irq = cbp_twi_bus_irq(avr, which);
    return irq ? irq : avr_io_getirq(avr, AVR_IOCTL_TWI_GETIRQ(0), which);
}

cbp_twi_message cbp_twi_decode(uint32_t value) {
    avr_twi_msg_irq_t v;
    v.u.v = value;
    cbp_twi_message m = { v.u.twi.msg, v.u.twi.addr, v.u.twi.data };
    return m;
}

uint32_t cbp_twi_encode(uint8_t conditions, uint8_t address, uint8_t data) {
    return avr_twi_irq_msg(conditions, address, data);
}

void cbp_irq_register(avr_irq_t *irq, cbp_irq_hook hook, void *context) {
    avr_irq_register_notify(irq, hook, context);
}

void cbp_irq_unregister(avr_irq_t *irq, cbp_irq_hook hook, void *context) {
    avr_irq_unregister_notify(irq, hook, context);
}

void cbp_irq_raise(avr_irq_t *irq, uint32_t value) { avr_raise_irq(irq, value); }
