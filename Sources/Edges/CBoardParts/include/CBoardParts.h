// CBoardParts: thin C glue between simavr and BoardEmulator's Swift code.
// Only what is awkward in Swift: function-like macros (ioctl numbers), bitfield
// message layouts, struct fields held in C arrays, and the hot run loop.
#pragma once

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

struct avr_t;
struct avr_irq_t;

/// Reads an ELF, forces `mmcu`/`frequency` (Arduino ELFs carry no .mmcu
/// section), creates and initialises the core and loads the firmware. Turns
/// off simavr's wall-clock sleeping (pacing is the caller's job), its UART
/// console echo and its UART poll-sleep. On failure returns NULL and writes a
/// one-line reason into `error`.
struct avr_t *cbp_avr_create(const char *elf_path, const char *mmcu, uint32_t frequency,
                             char *error, size_t error_size);

/// Copies the first `count` (at most) bytes of the flash image an AVR ELF
/// holds, from address 0 (the interrupt vectors), into `dest`: what tells the
/// chip it was linked for before a core is made for it. Returns the bytes
/// copied, or -1 with a one-line reason in `error` (not an AVR ELF, no code).
int cbp_elf_flash_head(const char *elf_path, uint8_t *dest, size_t count, char *error, size_t error_size);

/// Creates and initialises an `mmcu` core at `frequency` and copies `size`
/// bytes of `image` into flash from address 0, set up like cbp_avr_create
/// (no wall-clock sleeping, no UART console echo or poll-sleep, simavr's log
/// on stderr only with TILTSIM_SIMAVR_LOG), but without our models: call
/// cbp_avr_install_models next. For sketches exported from the Arduino IDE as
/// .hex (read in Swift, IntelHex). On failure returns NULL and writes a
/// one-line reason into `error`.
struct avr_t *cbp_avr_create_from_image(const uint8_t *image, uint32_t size, const char *mmcu,
                                        uint32_t frequency, char *error, size_t error_size);

/// Installs our TWI model (cbp_twi.c), turns simavr's INT0/INT1 level
/// polling off (also after resets) and gives the data space all 64 KiB (a
/// stray access beyond RAMEND stays in it) on a core made another way (a HEX
/// image); cbp_avr_create does it itself. False when out of memory.
bool cbp_avr_install_models(struct avr_t *avr);

/// Bytes the core's data space (avr->data) holds: at least 65536 once the
/// models are installed, RAMEND + 1 as simavr allocates it.
size_t cbp_avr_data_space(struct avr_t *avr);

/// Frees a core made by cbp_avr_create (or given cbp_avr_install_models).
void cbp_avr_destroy(struct avr_t *avr);

/// simavr's core states (cpu_Running ...), as plain ints for Swift.
enum {
    CBP_STATE_LIMBO = 0, CBP_STATE_STOPPED, CBP_STATE_RUNNING, CBP_STATE_SLEEPING,
    CBP_STATE_STEP, CBP_STATE_STEP_DONE, CBP_STATE_DONE, CBP_STATE_CRASHED,
};

/// Runs the core until its cycle counter reaches `until_cycle` or it stops
/// (done, crashed). Returns the core state.
int cbp_avr_run_until(struct avr_t *avr, uint64_t until_cycle);

/// The core's cycle counter (avr->cycle): CPU cycles since the core was made.
uint64_t cbp_avr_cycle(const struct avr_t *avr);
/// The core's clock, Hz (avr->frequency).
uint32_t cbp_avr_frequency(const struct avr_t *avr);
/// The core's state now, one of CBP_STATE_* (avr->state).
int cbp_avr_state(const struct avr_t *avr);
/// After a crash: whether it was the program counter at or past the end of
/// flash (a jump to nowhere, or code run on into erased flash).
bool cbp_avr_crashed_past_flash(const struct avr_t *avr);
/// Resets the core like the reset pin (RAM kept, registers and I/O cleared).
void cbp_avr_reset(struct avr_t *avr);

/// UART0 irqs (UART_IRQ_INPUT, UART_IRQ_OUTPUT, UART_IRQ_OUT_XON, UART_IRQ_OUT_XOFF).
struct avr_irq_t *cbp_uart0_irq(struct avr_t *avr, int which);
enum { CBP_UART_INPUT = 0, CBP_UART_OUTPUT, CBP_UART_XON, CBP_UART_XOFF };

/// The serial port a sketch's `Serial` uses, as four irqs shaped like UART0's
/// (CBP_UART_*): the USB host's of cbp_usb_serial.c on a core with a USB
/// controller (the ATmega32U4), else UART0's.
struct avr_irq_t *cbp_serial_irq(struct avr_t *avr, int which);
/// UART `number`'s irq `which` (0: Serial, 1–3: the Mega's Serial1–3); NULL when the chip has no such UART.
struct avr_irq_t *cbp_uart_irq(struct avr_t *avr, int number, int which);

struct avr_io_t;
/// Registers one of our modules (a calloc'd struct, its avr_io_t first) with
/// `avr`; cbp_avr_destroy frees it with the core.
void cbp_register_module(struct avr_t *avr, struct avr_io_t *io);

// MARK: USB serial (cbp_usb_serial.c)

/// A USB host on simavr's model of the ATmega32U4's USB controller: when the
/// firmware attaches, it resets the bus, enumerates the device, opens its
/// CDC-ACM port (115200 8N1, DTR as set) and carries bytes through the
/// CBP_UART_* irqs, with a start of frame each millisecond and the bulk
/// endpoints polled every 125 µs of board time. Installed by
/// cbp_avr_install_models on such a core; owned by it.
typedef struct cbp_usb_serial cbp_usb_serial;
/// Adds the USB host to `avr`; NULL when the core has no USB controller or memory ran out.
cbp_usb_serial *cbp_usb_serial_install(struct avr_t *avr);
/// The USB host installed on `avr`, or NULL.
cbp_usb_serial *cbp_usb_serial_find(struct avr_t *avr);
/// Its irq `which` (CBP_UART_*).
struct avr_irq_t *cbp_usb_serial_irq(cbp_usb_serial *usb, int which);
/// DTR (and RTS) as the host asserts them: whether a client has the port open.
/// The Arduino core's CDC sends nothing while DTR is down. Default: up.
void cbp_usb_serial_set_dtr(struct avr_t *avr, bool dtr);

/// The oldest report the device sent on an interrupt IN endpoint other than
/// CDC's (a HID mouse's or keyboard's), polled once a millisecond and kept in
/// a ring of 32 (the oldest dropped first): copies up to `capacity` bytes
/// into `bytes`, sets `endpoint` and the core `cycle` it was read at, and
/// returns its size; -1 when none is waiting (or the core has no USB).
int cbp_usb_serial_take_report(struct avr_t *avr, uint8_t *endpoint, uint64_t *cycle, uint8_t *bytes, size_t capacity);
/// Reports dropped because the ring was full when the next came, or
/// because the firmware released a bank with none free.
uint32_t cbp_usb_serial_reports_dropped(struct avr_t *avr);

// MARK: USB endpoint banks (cbp_usb_banks.c)

/// An interrupt IN endpoint's banks as the chip has them: each bank the
/// firmware releases is one packet for the host, held until its poll, and
/// RWAL reads 0 while all of them are held. Installed by cbp_usb_serial_install.
typedef struct cbp_usb_banks cbp_usb_banks;
struct avr_usb_t;
/// Adds the bank model to `avr`'s USB controller; NULL when out of memory or room.
cbp_usb_banks *cbp_usb_banks_install(struct avr_t *avr, struct avr_usb_t *usb);
/// Models `endpoint`'s banks from now on (until the core resets).
void cbp_usb_banks_watch(cbp_usb_banks *banks, uint8_t endpoint);
/// The oldest packet released on `endpoint`, copied into `bytes` (64 bytes
/// of room), its bank freed; its size, or -1 when none is held.
int cbp_usb_banks_take(cbp_usb_banks *banks, uint8_t endpoint, uint8_t *bytes);
/// Packets released while every bank was held (written without RWAL).
uint32_t cbp_usb_banks_dropped(cbp_usb_banks *banks);

/// The TWI bus irqs slaves attach to (CBP_TWI_INPUT: their answers,
/// CBP_TWI_OUTPUT: what the master sends): our TWI model's (cbp_twi.c),
/// installed by cbp_avr_create in place of simavr's avr_twi.
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
/// Splits a TWI irq value (avr_twi_msg_irq_t) into conditions, address byte and data.
cbp_twi_message cbp_twi_decode(uint32_t value);
/// Packs conditions (CBP_TWI_*), address byte and data into a TWI irq value, like avr_twi_irq_msg.
uint32_t cbp_twi_encode(uint8_t conditions, uint8_t address, uint8_t data);

/// Signature of an irq notify hook (same as simavr's avr_irq_notify_t).
typedef void (*cbp_irq_hook)(struct avr_irq_t *irq, uint32_t value, void *context);
/// Calls `hook(irq, value, context)` whenever `irq` is raised (avr_irq_register_notify).
void cbp_irq_register(struct avr_irq_t *irq, cbp_irq_hook hook, void *context);
/// Removes a hook registered with the same `hook` and `context` (avr_irq_unregister_notify).
void cbp_irq_unregister(struct avr_irq_t *irq, cbp_irq_hook hook, void *context);
/// Raises `irq` with `value`, running its hooks synchronously (avr_raise_irq).
void cbp_irq_raise(struct avr_irq_t *irq, uint32_t value);

// MARK: TWI master (cbp_twi.c)

/// Our model of the ATmega328P's TWI (datasheet section 21): polling works
/// (TWINT clears when written with 1), TWSR carries the datasheet's master
/// status codes, bus time follows TWBR/TWPS. Installed by cbp_avr_create;
/// owned by the core (freed by cbp_avr_destroy).
typedef struct cbp_twi cbp_twi;
/// Adds our TWI model to `avr` as an I/O module ("twi-bus"); NULL when out of memory.
cbp_twi *cbp_twi_install(struct avr_t *avr);
/// The TWI model installed on `avr`, or NULL if none.
cbp_twi *cbp_twi_find(struct avr_t *avr);
/// The bus irq `which` (CBP_TWI_INPUT or CBP_TWI_OUTPUT) of the installed TWI model.
struct avr_irq_t *cbp_twi_bus_irq(struct avr_t *avr, int which);
/// CPU cycles the bus has been busy (START, bytes, STOP) since power-on.
uint64_t cbp_twi_bus_cycles(struct avr_t *avr);
/// The bus's clock setting as the firmware last wrote it: TWBR in the low
/// byte, TWSR's prescaler bits (TWPS, 0...3) in bits 8-9.
uint16_t cbp_twi_bit_rate(struct avr_t *avr);
/// Whether the firmware has the TWI on (TWEN): it then owns the SDA and SCL pins.
bool cbp_twi_enabled(struct avr_t *avr);

/// Calls `after` on every write to the io register at data address `addr`,
/// after the handler already there (simavr's) or the core's store; once per
/// register for the same handler and parameter. Not simavr's io muxer, which
/// has room for four shared registers a chip. False when out of room.
bool cbp_io_after(struct avr_t *avr, uint16_t addr, void (*after)(struct avr_t *, uint16_t, uint8_t, void *), void *param);
/// A store to an I/O register as the core makes it: its write handler runs
/// (simavr's and any `cbp_io_after`), or the plain store when it has none.
void cbp_io_store(struct avr_t *avr, uint16_t addr, uint8_t value);

/// Recounts every UART's byte time after the sketch sets its baud rate or
/// frame format: start, data, a parity bit only when UPMn asks for one, stop
/// bits (simavr 1.6 always counts a parity bit: 11 bit times for 8N1).
void cbp_uart_timing_install(struct avr_t *avr);

/// Counts the bytes each UART is given while its transmitter is off (TXENn
/// clear: Serial.print before Serial.begin), stored to UDRn or queued for
/// its ISR (UCSRnB written with UDRIEn set), which go nowhere; false when
/// out of memory or of `cbp_io_after` room.
bool cbp_uart_transmitter_off_install(struct avr_t *avr);
/// Those bytes for UART `number` (0 for UART0) since the last reset.
uint32_t cbp_uart_writes_with_transmitter_off(struct avr_t *avr, int number);

/// The baud rate the sketch's Serial (UART0) sends at, from UBRR0 and U2X0;
/// 0 while its transmitter is off, or when Serial is the chip's USB (32U4).
uint32_t cbp_serial_baud(struct avr_t *avr);

/// Counts the timers' dual-slope modes (phase correct, phase and frequency
/// correct PWM) as the chip does: an overflow every 2·TOP ticks, where
/// simavr 1.6 counts TOP + 1, or one tick for the modes it has no entry for.
void cbp_timer_slopes_install(struct avr_t *avr);
/// Whether a timer's compare output drives pin `bit` of `port` in a way that
/// does not reach pin reads here: a PWM mode (analogWrite), or clear or set
/// on compare match (COM bits left set in normal mode under the Servo
/// library). A toggle outside the PWM modes does reach them.
bool cbp_pin_timer_driven(struct avr_t *avr, char port, uint8_t bit);

/// The ADC's result as the chip computes it, Vin · 1024 / Vref (at most
/// 1023), where simavr 1.6 scales by 1023 (2.5 V on 5 V read 511, not 512).
void cbp_adc_scale_install(struct avr_t *avr);

/// INT0/INT1 at low level asked for again and again while enabled and the
/// pin is low, also when the pin was low before the interrupt was enabled
/// (simavr's own repetition is off: it polled every cycle, enabled or not).
bool cbp_extint_level_install(struct avr_t *avr);

/// The sleep modes as the chip has them (simavr 1.6 runs every one as idle):
/// below idle only the datasheet's wake-up sources end a sleep, after the
/// oscillator's start-up; SLEEP with SE clear does nothing; the watchdog's
/// interrupt mode keeps interrupting. Takes over `avr->sleep` (and `avr->run`
/// while the core sleeps below idle) and `avr->custom.data`.
bool cbp_sleep_modes_install(struct avr_t *avr);

/// What an Arduino's bootloader does before each start of the sketch (power
/// on, external or watchdog reset): MCUSR cleared and the watchdog off, so a
/// watchdog reset reboots the sketch once instead of every 16 ms for good.
bool cbp_bootloader_install(struct avr_t *avr);

/// The power reduction registers' timer bits (PRTIMn in PRR/PRR0/PRR1), which
/// simavr 1.6 ignores: a timer powered down stops counting and interrupting,
/// and goes on as before when powered up again.
bool cbp_power_reduction_install(struct avr_t *avr);

/// An EEPROM write's 3.4 ms, EEPE set until it ends (simavr 1.6 cleared it
/// at once, so a block of EEPROM.write calls took no time).
bool cbp_eeprom_timing_install(struct avr_t *avr);

struct avr_int_vector_t;
struct avr_regbit_t;

/// The peripherals whose interrupt flag is a latched bit (cbp_flag_vectors.c).
typedef enum {
    CBP_FLAG_EXTINT, CBP_FLAG_PIN_CHANGE, CBP_FLAG_ADC, CBP_FLAG_COMPARATOR, CBP_FLAG_SPI, CBP_FLAG_TIMER, CBP_FLAG_WATCHDOG,
} cbp_flag_kind;
/// Called for one vector; `sense`: INTn's two ISC bits (NULL for the others). False stops the walk.
typedef bool (*cbp_flag_vector_visit)(struct avr_t *avr, struct avr_int_vector_t *vector, cbp_flag_kind kind,
                                      struct avr_regbit_t *sense, void *context);
/// Calls `visit` for every such vector of the core, in the core's module
/// order; false when a call said false.
bool cbp_each_flag_vector(struct avr_t *avr, cbp_flag_vector_visit visit, void *context);

/// Takes back an interrupt asked for and not yet served: its flag cleared,
/// and its entry out of simavr's pending fifo (which a plain clear leaves).
void cbp_interrupt_withdraw(struct avr_t *avr, struct avr_int_vector_t *vector);

/// EIFR's INTFn, PCIFR's PCIFn, ADCSRA's ADIF, ACSR's ACI, WDTCSR's WDIF and
/// the timers' TIFRn flags cleared by writing a one (simavr 1.6 stored it:
/// the flag set, or ADIF and WDIF stuck; a TIFRn write cleared them all), with an interrupt
/// still pending for it; SBI/CBI on EIFR or PCIFR touch only their own bit.
bool cbp_flag_clear_install(struct avr_t *avr);

/// The ADC's auto trigger from a timer's flag, INT0's or the comparator's
/// (simavr 1.6: free running only). Installed after cbp_flag_clear_install,
/// which tells it when a written one clears a flag.
bool cbp_adc_trigger_install(struct avr_t *avr);

/// An SPI byte ends after its 8 SCK periods at the clock SPCR/SPSR set
/// (simavr 1.6: 100 µs whatever the clock).
void cbp_spi_timing_install(struct avr_t *avr);

/// An interrupt whose flag was set while it was masked is served once a write
/// unmasks it (simavr 1.6 served only flags raised while enabled). Installed
/// after cbp_flag_clear_install, so a flag a write clears is cleared first.
bool cbp_int_unmask_install(struct avr_t *avr);

// MARK: SSD1306 (cbp_ssd1306.c)

/// The SSD1306's GDDRAM and registers, as the glass model (Swift) needs them.
typedef struct {
    uint8_t gddram[1024];        ///< 8 pages x 128 columns, page-major; bit 0 = top row of the page
    uint8_t display_on;          ///< 0xAF
    uint8_t charge_pump;         ///< 0x8D 0x14
    uint8_t inverse;             ///< 0xA7
    uint8_t entire_on;           ///< 0xA5
    uint8_t segment_remap;       ///< 0xA1: column 127 drives SEG0
    uint8_t com_reversed;        ///< 0xC8: COM scan from COM[N-1] to COM0
    uint8_t start_line;          ///< 0x40..0x7F
    uint8_t offset;              ///< 0xD3
    uint8_t multiplex;           ///< 0xA8: rows - 1 (15..63)
    uint8_t com_pins;            ///< 0xDA: bit 4 alternative, bit 5 left/right remap
    uint8_t contrast;            ///< 0x81
    uint8_t clock;               ///< 0xD5: oscillator (bits 7:4), divide ratio - 1 (bits 3:0)
    uint8_t precharge;           ///< 0xD9: phase 2 (7:4), phase 1 (3:0)
    uint8_t vcomh;               ///< 0xDB
    uint8_t addressing_mode;     ///< 0x20: 0 horizontal, 1 vertical, 2 page
    uint8_t column, page;        ///< the write cursor
    uint8_t column_start, column_end, page_start, page_end;  ///< 0x21, 0x22
    uint8_t scroll_active;       ///< 0x2F
    uint8_t scroll_kind;         ///< 0x26 right, 0x27 left, 0x29/0x2A diagonal; 0 none set up
    uint8_t scroll_start_page, scroll_end_page;
    uint8_t scroll_interval;     ///< frames-per-step code (0..7)
    uint8_t scroll_vertical_step;  ///< rows per step (diagonal)
    uint8_t vscroll_top, vscroll_rows;  ///< 0xA3: fixed rows at the top, rows that scroll
    uint8_t vscroll_offset;      ///< rows the vertical scroll has moved
    uint32_t scroll_steps;       ///< steps since 0x2F
    uint64_t frame_cycles;       ///< one display frame, in CPU cycles
    uint8_t kind;                ///< CBP_DISPLAY_*: on the SH1106 gddram is the glass window; 128X32: a 32-line panel
} cbp_ssd1306_state;

/// Which controller the display part models: the values of the PARTS frame's
/// display_kind (docs/protocol.md) and the firmware's TILT_DISPLAY_*.
/// CBP_DISPLAY_SSD1306_128X32 is the SSD1306 controller on a 32-line panel:
/// the part behaves as an SSD1306; only the glass (Swift) differs.
enum { CBP_DISPLAY_SSD1306 = 0, CBP_DISPLAY_SH1106 = 1, CBP_DISPLAY_SSD1306_128X32 = 2 };
/// The SH1106's RAM columns, and the first of the 128 a 1.3" module shows (SEG2..SEG129).
enum { CBP_SH1106_COLUMNS = 132, CBP_SH1106_FIRST_SHOWN = 2 };

typedef struct cbp_ssd1306 cbp_ssd1306;
/// A 128x64 SSD1306 on the TWI bus at 7-bit `address` (0x3C, or 0x3D with SA0
/// high), in its power-on state. The reset line is not wired (it stays high).
cbp_ssd1306 *cbp_ssd1306_create(struct avr_t *avr, uint8_t address);
/// cbp_ssd1306_create for a controller `kind` (CBP_DISPLAY_*): an SH1106 has
/// 132-column RAM of which columns 2..129 show (mirrored into the state's
/// gddram), page addressing only, and answers reads after a D/C=1 control
/// byte with RAM bytes (one dummy byte first); an SSD1306 answers every read
/// with its status byte. NULL for an unknown kind or when out of memory.
cbp_ssd1306 *cbp_ssd1306_create_kind(struct avr_t *avr, uint8_t address, uint8_t kind);
/// The controller the part models (CBP_DISPLAY_*).
uint8_t cbp_ssd1306_kind(const cbp_ssd1306 *part);
/// The fastest SCL the module answers at, Hz (0, the default: any); above it
/// it does not acknowledge its address, as a module beyond its clock does.
void cbp_ssd1306_set_max_clock(cbp_ssd1306 *part, uint32_t hz);
/// One byte of the controller's own RAM (page 0..7; column 0..127, or 0..131
/// on an SH1106, shown or not); -1 outside it.
int cbp_ssd1306_ram_byte(const cbp_ssd1306 *part, uint8_t page, uint8_t column);
/// Unregisters the part from the bus and frees it; call before the core is destroyed.
void cbp_ssd1306_destroy(cbp_ssd1306 *part);
/// Power-on reset: the datasheet's reset values (page addressing, display off), GDDRAM cleared.
void cbp_ssd1306_power_on(cbp_ssd1306 *part);
/// Brings scrolling up to the core's current cycle and copies the state.
/// Returns whether anything changed since the last snapshot or copy.
bool cbp_ssd1306_snapshot(cbp_ssd1306 *part, cbp_ssd1306_state *out);
/// Like cbp_ssd1306_snapshot, but leaves the change flag for the next snapshot.
void cbp_ssd1306_peek(cbp_ssd1306 *part, cbp_ssd1306_state *out);
/// Copies GDDRAM (page-major); returns whether anything changed since the last call.
bool cbp_ssd1306_copy_vram(cbp_ssd1306 *part, uint8_t out[1024]);
/// Display state bits: bit 0 on (0xAF), bit 1 inverted (0xA7), bit 2 segments
/// remapped (0xA1), bit 3 COM scan reversed (0xC8). Contrast in `contrast`.
uint8_t cbp_ssd1306_flags(const cbp_ssd1306 *part, uint8_t *contrast);
/// Bytes the master has written to this part since it was created (address,
/// control and payload bytes); the transactions (STARTs addressed to it) in `transactions`.
uint64_t cbp_ssd1306_traffic(const cbp_ssd1306 *part, uint64_t *transactions);
/// The core cycle at which the bus delivered the last byte that may have
/// changed the glass: a data byte unlike the GDDRAM byte it replaced, or the
/// last byte of a command other than the write cursor's (column, page,
/// addressing) and NOP. Scrolling is not counted. Our TWI model delivers a
/// byte at the start of its nine SCL periods. 0 before any.
uint64_t cbp_ssd1306_last_change_cycle(const cbp_ssd1306 *part);

// MARK: A message-level TWI master (cbp_bus_master.c)

/// The slaves' answer to one message: acknowledged, and the byte a READ gave (0xFF: none).
typedef struct { bool ack; uint8_t data; } cbp_bus_answer;
/// Sends one message (conditions CBP_TWI_*, the transaction's address byte,
/// data) to the slaves on the bus irqs and returns their synchronous answer.
cbp_bus_answer cbp_bus_send(struct avr_t *avr, uint8_t conditions, uint8_t address_byte, uint8_t data);

/// Sends START with `address` (7-bit) for writing, `count` bytes, then STOP,
/// straight to the slaves on the bus irqs (no core, no bus time): how tests
/// drive a part model. True if the address and every byte were acknowledged.
bool cbp_bus_master_write(struct avr_t *avr, uint8_t address, const uint8_t *bytes, size_t count);
/// Sends START with `address` for reading, takes `count` bytes, then STOP
/// (0xFF for a byte no slave answered). True if the address was acknowledged.
bool cbp_bus_master_read(struct avr_t *avr, uint8_t address, uint8_t *out, size_t count);

// MARK: A bit-banged I2C master heard on the pins (cbp_soft_i2c.c)

typedef struct cbp_soft_i2c cbp_soft_i2c;
/// Hears SDA and SCL (bits of port `port`, 'C' for PC4/PC5) as open-drain
/// lines with pull-ups, and passes what a master that toggles them itself
/// says to the TWI's slaves; NULL when the core has no such port or out of
/// memory. cbp_avr_install_models installs it on the chip's own TWI pins.
cbp_soft_i2c *cbp_soft_i2c_install(struct avr_t *avr, char port, uint8_t sda_bit, uint8_t scl_bit);
/// The one installed on `avr`, or NULL.
cbp_soft_i2c *cbp_soft_i2c_find(struct avr_t *avr);
/// SCL edges the sketch made with the port while the TWI was on (TWEN): it
/// owns the pins then, so they reached nothing. 0 without one installed.
uint32_t cbp_soft_i2c_blocked_edges(struct avr_t *avr);

/// Whether the sketch called a 7-bit `address` on the TWI since the board
/// was made: 0 never, 1 only unanswered (NACK), 2 a part answered at least once.
int cbp_twi_addressed(struct avr_t *avr, uint8_t address);

// MARK: Timers and pins for part models (cbp_timer.c)

/// A one-shot timer on the core's cycle counter that survives core resets
/// (simavr drops its cycle timers on reset; a part is a separate chip).
typedef struct cbp_timer cbp_timer;
typedef void (*cbp_timer_hook)(void *context);
/// A stopped timer that calls `hook(context)` when it fires; NULL when out of memory.
cbp_timer *cbp_timer_create(struct avr_t *avr, cbp_timer_hook hook, void *context);
/// Fires `hook` once the core reaches `cycle` (at once if it already has); replaces any earlier time.
void cbp_timer_at(cbp_timer *timer, uint64_t cycle);
/// Stops the timer; it fires no more until the next cbp_timer_at.
void cbp_timer_cancel(cbp_timer *timer);
/// Whether the core was reset since the last call (the timer then fires right
/// after the reset, so the part can drive its pins again).
bool cbp_timer_take_reset(cbp_timer *timer);
/// Cancels and frees; call before the core is destroyed.
void cbp_timer_destroy(cbp_timer *timer);

/// An I/O pin's irq (port 'B', 'C', 'D'; bit 0..7): its value is the pin's
/// level. To drive a pin from outside, use `cbp_pin_drive`.
struct avr_irq_t *cbp_ioport_pin_irq(struct avr_t *avr, char port, int bit);

// MARK: Parts that drive the chip's pins (cbp_pin_drive.c)

/// The I/O port named `name` ('B', 'C', 'D', …), or NULL.
struct avr_ioport_t *cbp_ioport(struct avr_t *avr, char name);
/// A part outside the chip drives the pins of `port` in `mask` to `value`'s
/// bits: while a pin is an input it reads that level, whatever the sketch
/// writes to PORT (its pull-up) meanwhile; pin-change and external
/// interrupts follow. An output pin keeps its own level. False: no such port.
bool cbp_pin_drive(struct avr_t *avr, char port, uint8_t mask, uint8_t value);
/// The part lets go of the pins in `mask` (a button released): they read a
/// resistor's pull if one is there, else their own pull-up, else what they last read.
bool cbp_pin_release(struct avr_t *avr, char port, uint8_t mask);
/// A resistor to 5 V (`value`'s bit 1) or GND (0), or a pin strapped to one,
/// pulls the pins in `mask`: they read it while no part drives them.
bool cbp_pin_pull(struct avr_t *avr, char port, uint8_t mask, uint8_t value);
/// A wire to another of the chip's pins gives the pins in `mask` `value`'s
/// bits: `strength` 2 as a driven level (below a part's drive), 1 as a pull
/// (below a resistor's), 0 nothing (cbp_jumper.c).
bool cbp_pin_wire(struct avr_t *avr, char port, uint8_t mask, int strength, uint8_t value);
/// What parts give the pin in `mask`: 2 a drive, 1 a pull (its level in
/// `high`), 0 nothing.
int cbp_pin_parts(struct avr_t *avr, char port, uint8_t mask, bool *high);
/// `changed` is called after any part's drive or pull changes (one a chip).
void cbp_pin_drive_on_parts_changed(struct avr_t *avr, void (*changed)(struct avr_t *avr, void *param), void *param);
/// A wire between two of the chip's pins (`bit_a` of `port_a` to `bit_b` of
/// `port_b`): an output end drives the other end's input, an input end with
/// its pull-up pulls it high (cbp_jumper.c). At most 16; false when out of
/// room or memory, or for no such port.
bool cbp_jumper_add(struct avr_t *avr, char port_a, uint8_t bit_a, char port_b, uint8_t bit_b);
/// Two outputs at opposite levels on one net of wires: a short circuit on a
/// board (each pin here reads its own level). `cycle` is when the first
/// began, `last_cycle` the last of `count`; the pair is the first one's.
typedef struct {
    char port_a;
    uint8_t bit_a;
    char port_b;
    uint8_t bit_b;
    uint64_t cycle;
    uint32_t count;
    uint64_t last_cycle;
} cbp_jumper_short;
/// The shorts of each net that had one (at most 16, `max` here), in the
/// order their first began; returns how many it wrote.
int cbp_jumper_shorts(struct avr_t *avr, cbp_jumper_short *shorts, int max);
/// Installs the module behind the three above (cbp_avr_install_models does).
bool cbp_pin_drive_install(struct avr_t *avr);

/// An irq's last value: for a pin's irq, the level the firmware last wrote to
/// its PORT bit or the level last driven from outside, whichever came later.
uint32_t cbp_irq_value(const struct avr_irq_t *irq);

/// The EEPROM's size in bytes (E2END + 1; 0: none).
uint32_t cbp_eeprom_size(struct avr_t *avr);
/// Copies the first `size` bytes of the EEPROM to `dest` (nothing when `size` is 0 or too big).
void cbp_eeprom_get(struct avr_t *avr, uint8_t *dest, uint32_t size);
/// Writes `size` bytes from `source` at the EEPROM's start (nothing when `size` is 0 or too big).
void cbp_eeprom_set(struct avr_t *avr, const uint8_t *source, uint32_t size);

/// The board's supply, mV: VCC, AVCC and AREF (analogRead's references),
/// and the internal temperature sensor at 25 °C.
void cbp_avr_set_supply(struct avr_t *avr, uint32_t millivolts);

/// Puts `millivolts` on ADC input `channel` (what analogRead converts from
/// then on); false if the core has no such channel.
bool cbp_adc_set_millivolts(struct avr_t *avr, int channel, uint32_t millivolts);
