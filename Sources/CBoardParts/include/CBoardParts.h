// CBoardParts: thin C glue between simavr and BoardEmulator's Swift code.
// Only what is awkward in Swift: function-like macros (ioctl numbers), bitfield
// message layouts, struct fields held in C arrays, and the hot run loop.
#pragma once

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

struct avr_t;
struct avr_irq_t;
struct ssd1306_t;

/// Reads an ELF, forces `mmcu`/`frequency` (Arduino ELFs carry no .mmcu
/// section), creates and initialises the core and loads the firmware. Turns
/// off simavr's wall-clock sleeping (pacing is the caller's job), its UART
/// console echo and its UART poll-sleep. On failure returns NULL and writes a
/// one-line reason into `error`.
struct avr_t *cbp_avr_create(const char *elf_path, const char *mmcu, uint32_t frequency,
                             char *error, size_t error_size);

/// Frees a core made by cbp_avr_create.
void cbp_avr_destroy(struct avr_t *avr);

/// simavr's core states (cpu_Running ...), as plain ints for Swift.
enum {
    CBP_STATE_LIMBO = 0, CBP_STATE_STOPPED, CBP_STATE_RUNNING, CBP_STATE_SLEEPING,
    CBP_STATE_STEP, CBP_STATE_STEP_DONE, CBP_STATE_DONE, CBP_STATE_CRASHED,
};

/// Runs the core until its cycle counter reaches `until_cycle` or it stops
/// (done, crashed). Returns the core state.
int cbp_avr_run_until(struct avr_t *avr, uint64_t until_cycle);

uint64_t cbp_avr_cycle(const struct avr_t *avr);
uint32_t cbp_avr_frequency(const struct avr_t *avr);
int cbp_avr_state(const struct avr_t *avr);
/// Resets the core like the reset pin (RAM kept, registers and I/O cleared).
void cbp_avr_reset(struct avr_t *avr);

/// UART0 irqs (UART_IRQ_INPUT, UART_IRQ_OUTPUT, UART_IRQ_OUT_XON, UART_IRQ_OUT_XOFF).
struct avr_irq_t *cbp_uart0_irq(struct avr_t *avr, int which);
enum { CBP_UART_INPUT = 0, CBP_UART_OUTPUT, CBP_UART_XON, CBP_UART_XOFF };

/// TWI0 irqs (TWI_IRQ_INPUT, TWI_IRQ_OUTPUT).
struct avr_irq_t *cbp_twi0_irq(struct avr_t *avr, int which);
enum { CBP_TWI_INPUT = 0, CBP_TWI_OUTPUT = 1 };

/// TWI message condition bits (avr_twi.h TWI_COND_*).
enum {
    CBP_TWI_START = 1 << 0, CBP_TWI_STOP = 1 << 1, CBP_TWI_ADDR = 1 << 2,
    CBP_TWI_ACK = 1 << 3, CBP_TWI_WRITE = 1 << 4, CBP_TWI_READ = 1 << 5,
};

/// A TWI irq value split into its fields. `address` is the 8-bit address byte
/// (7-bit address << 1 | read bit).
typedef struct { uint8_t conditions; uint8_t address; uint8_t data; } cbp_twi_message;
cbp_twi_message cbp_twi_decode(uint32_t value);
uint32_t cbp_twi_encode(uint8_t conditions, uint8_t address, uint8_t data);

/// Signature of an irq notify hook (same as simavr's avr_irq_notify_t).
typedef void (*cbp_irq_hook)(struct avr_irq_t *irq, uint32_t value, void *context);
void cbp_irq_register(struct avr_irq_t *irq, cbp_irq_hook hook, void *context);
void cbp_irq_unregister(struct avr_irq_t *irq, cbp_irq_hook hook, void *context);
void cbp_irq_raise(struct avr_irq_t *irq, uint32_t value);

/// A 128x64 SSD1306 on TWI0 at 7-bit `address` (0x3C). Uses simavr's
/// ssd1306_virt for the command set and VRAM, behind our own TWI front end:
/// it decodes control bytes itself (Co and D/C bits, so 0x80/0xC0 never reach
/// the part, which would abort the process) and swallows the single-byte
/// "set start line" commands 0x40..0x7F, which the part mistakes for a
/// command with a parameter. The reset line is not wired (it stays high).
struct ssd1306_t *cbp_ssd1306_create(struct avr_t *avr, uint8_t address);
void cbp_ssd1306_destroy(struct ssd1306_t *part);
/// Power-on state: VRAM cleared, cursor home, horizontal addressing.
void cbp_ssd1306_power_on(struct ssd1306_t *part);
/// Copies 1024 bytes of VRAM (page-major: page 0 columns 0..127 first).
/// Returns whether VRAM or the display flags changed since the last call.
bool cbp_ssd1306_copy_vram(struct ssd1306_t *part, uint8_t out[1024]);
/// Display state bits: bit 0 on (0xAF), bit 1 inverted (0xA7), bit 2 segments
/// remapped (0xA1), bit 3 COM scan reversed (0xC8). Contrast in `contrast`.
uint8_t cbp_ssd1306_flags(const struct ssd1306_t *part, uint8_t *contrast);
