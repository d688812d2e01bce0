// A USB host for simavr's model of the ATmega32U4's USB controller (avr_usb.c):
// it enumerates the device, opens its CDC-ACM port and carries bytes through
// four irqs shaped like simavr's UART ones, so BoardEmulator's AVRUART moves a
// Leonardo's native USB serial exactly as it moves an Uno's UART0.
//
// What a full-speed host does, reduced to what the Arduino core's USBCore and
// CDC need: a bus reset, GET_DESCRIPTOR (device, configuration), SET_ADDRESS,
// SET_CONFIGURATION, SET_LINE_CODING, SET_CONTROL_LINE_STATE (DTR follows
// cbp_usb_serial_set_dtr: whether a client has the port open), a start of
// frame every millisecond (simavr 1.6 compiles its own SOF timer out, and the
// core's CDC sends a partly filled packet only at one), the bulk endpoints
// polled every 125 µs, and every other interrupt IN endpoint (a HID mouse's
// or keyboard's: PluggableUSB) once a millisecond, its reports kept for
// cbp_usb_serial_take_report (unread, a sketch's HID().SendReport would wait
// out the core's 250 ms timeout on every report); their banks as the chip has
// them (cbp_usb_banks.c). One packet per endpoint a poll, on the core's cycle
// timers: the same run gives the same bytes at the same cycles.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <avr_usb.h>
#include <sim_avr.h>
#include <sim_cycle_timers.h>
#include <sim_interrupts.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <sim_time.h>

enum {
    POLL_MICROS = 125,
    POLLS_PER_FRAME = 8,          // a start of frame each millisecond
    SETTLE_POLLS = 8,             // after a bus reset or a SETUP before sending data: the ISR's turn
    GIVE_UP_POLLS = 8000,         // a control transfer not done in 1 s of board time: the port stays dead
    FIFO_SIZE = 256,              // host bytes waiting for the bulk OUT endpoint
    REPORT_ENDPOINTS = 4,         // interrupt IN endpoints polled besides CDC's
    REPORT_RING = 32,             // reports kept until taken; the oldest go first
    PACKET = 64,                  // the core's endpoint size
    UDINT = 9, UDIEN = 10,        // avr_usb's register offsets from USBCON
    UENUM = 17, UECONX = 19,
    SOFI = 2,
};

typedef enum { XFER_SETUP, XFER_DATA_IN, XFER_DATA_OUT, XFER_STATUS_IN, XFER_STATUS_OUT, XFER_DONE, XFER_FAILED } xfer_phase;

// The enumeration, in order; READY carries data and line-state changes.
typedef enum {
    STEP_DETACHED, STEP_RESET, STEP_DEVICE, STEP_ADDRESS, STEP_CONFIGURATION_DESCRIPTOR,
    STEP_CONFIGURATION, STEP_LINE_CODING, STEP_READY, STEP_FAILED,
} enumeration_step;

struct cbp_usb_serial {
    avr_io_t io;  // first member: found by its kind, freed by cbp_avr_destroy
    avr_usb_t *usb;
    cbp_usb_banks *banks;
    enumeration_step step;
    struct {
        uint8_t setup[8];
        uint16_t length, done;
        xfer_phase phase;
        uint32_t polls;
        uint8_t data[256];
    } xfer;
    uint8_t in_endpoint, out_endpoint, comm_interface;
    bool dtr, dtr_sent, polling, xoff;
    uint32_t polls;
    uint8_t fifo[FIFO_SIZE];
    uint16_t fifo_head, fifo_count;
    uint8_t report_endpoints[REPORT_ENDPOINTS], report_endpoint_count;
    struct {
        avr_cycle_count_t cycle;
        uint8_t endpoint, size;
        uint8_t bytes[PACKET];
    } reports[REPORT_RING];
    uint16_t report_head, report_count;
    uint32_t reports_dropped;
};

static const char *cbp_usb_serial_irq_names[] = { "8<usb.input", "8>usb.output", ">usb.xon", ">usb.xoff" };

#define CBP_IOCTL_USB_SERIAL AVR_IOCTL_DEF('u', 's', 'b', 'S')

// Whether the firmware has enabled `endpoint` (UECONX.EPEN). simavr printf()s
// a warning on stdout for a packet to an endpoint that is not, so the host
// asks first: it selects the endpoint for one register read and puts the
// firmware's selection back (between two instructions: the firmware cannot tell).
static bool cbp_usb_endpoint_enabled(cbp_usb_serial *p, uint8_t endpoint) {
    avr_t *avr = p->io.avr;
    uint16_t selected = p->usb->r_usbcon + UENUM, control = p->usb->r_usbcon + UECONX;
    avr_io_addr_t io = AVR_DATA_TO_IO(control);
    if (!avr->io[io].r.c) return false;
    uint8_t firmware_choice = avr->data[selected];
    avr->data[selected] = endpoint;
    uint8_t value = avr->io[io].r.c(avr, control, avr->io[io].r.param);
    avr->data[selected] = firmware_choice;
    return value & 1;
}

// A packet to or from `endpoint`; an endpoint the firmware has not enabled answers NAK.
static int cbp_usb_io(cbp_usb_serial *p, uint32_t ctl, uint8_t endpoint, uint8_t *buffer, uint32_t *size) {
    if (!cbp_usb_endpoint_enabled(p, endpoint)) return AVR_IOCTL_USB_NAK;
    struct avr_io_usb packet = { endpoint, *size, buffer };
    int result = avr_ioctl(p->io.avr, ctl, &packet);
    *size = packet.sz;
    return result;
}

static void cbp_usb_control(cbp_usb_serial *p, uint8_t type, uint8_t request, uint16_t value, uint16_t index,
                            const uint8_t *data, uint16_t length) {
    uint8_t setup[8] = { type, request, value & 0xFF, value >> 8, index & 0xFF, index >> 8, length & 0xFF, length >> 8 };
    memcpy(p->xfer.setup, setup, sizeof setup);
    p->xfer.length = length > sizeof p->xfer.data ? sizeof p->xfer.data : length;
    if (data) memcpy(p->xfer.data, data, p->xfer.length);
    p->xfer.done = 0;
    p->xfer.polls = 0;
    p->xfer.phase = XFER_SETUP;
}

// One packet of the control transfer under way: a NAK waits for the next poll.
static void cbp_usb_control_step(cbp_usb_serial *p) {
    uint8_t packet[PACKET];
    uint32_t size = 0;
    int result = 0;
    if (++p->xfer.polls > GIVE_UP_POLLS) {
        p->xfer.phase = XFER_FAILED;
        return;
    }
    bool in = p->xfer.setup[0] & 0x80;
    switch (p->xfer.phase) {
    case XFER_SETUP:
        size = sizeof p->xfer.setup;
        if (cbp_usb_io(p, AVR_IOCTL_USB_SETUP, 0, p->xfer.setup, &size) != 0) return;  // EP0 not up yet
        p->xfer.phase = p->xfer.length == 0 ? XFER_STATUS_IN : in ? XFER_DATA_IN : XFER_DATA_OUT;
        p->xfer.polls = 0;
        return;
    case XFER_DATA_IN:
        size = PACKET;
        result = cbp_usb_io(p, AVR_IOCTL_USB_READ, 0, packet, &size);
        if (result == 0) {
            uint32_t take = size < (uint32_t)(p->xfer.length - p->xfer.done) ? size : p->xfer.length - p->xfer.done;
            memcpy(p->xfer.data + p->xfer.done, packet, take);
            p->xfer.done += take;
            if (size < PACKET || p->xfer.done == p->xfer.length) p->xfer.phase = XFER_STATUS_OUT;
        }
        break;
    case XFER_DATA_OUT:
        if (p->xfer.polls < SETTLE_POLLS) return;  // simavr's bank would take the data over an unread SETUP
        size = p->xfer.length - p->xfer.done;
        if (size > PACKET) size = PACKET;
        result = cbp_usb_io(p, AVR_IOCTL_USB_WRITE, 0, p->xfer.data + p->xfer.done, &size);
        if (result == 0) {
            p->xfer.done += size;
            if (p->xfer.done == p->xfer.length) p->xfer.phase = XFER_STATUS_IN;
        }
        break;
    case XFER_STATUS_IN:  // a zero-length packet each way closes the transfer
        result = cbp_usb_io(p, AVR_IOCTL_USB_READ, 0, packet, &size);
        if (result == 0) p->xfer.phase = XFER_DONE;
        break;
    case XFER_STATUS_OUT:
        result = cbp_usb_io(p, AVR_IOCTL_USB_WRITE, 0, packet, &size);
        if (result == 0) p->xfer.phase = XFER_DONE;
        break;
    case XFER_DONE:
    case XFER_FAILED:
        return;
    }
    if (result == AVR_IOCTL_USB_STALL) p->xfer.phase = XFER_FAILED;
}

// The CDC interfaces' numbers and the data interface's bulk endpoints, from
// the configuration descriptor (the Arduino core's: ACM 0, data 1 with 0x02
// OUT and 0x83 IN; PluggableUSB may move them), and the interrupt IN
// endpoints of any other interface (HID's).
static bool cbp_usb_find_cdc(cbp_usb_serial *p) {
    const uint8_t *d = p->xfer.data;
    uint16_t total = p->xfer.done;
    int interface_class = -1;
    p->in_endpoint = p->out_endpoint = 0;
    p->report_endpoint_count = 0;
    for (uint16_t at = 0; at + 2 <= total && d[at] >= 2; at += d[at]) {
        if (d[at + 1] == 4 && at + 5 < total) {  // INTERFACE
            interface_class = d[at + 5];
            if (interface_class == 0x02) p->comm_interface = d[at + 2];
        } else if (d[at + 1] == 5 && at + 3 < total && interface_class == 0x0A && (d[at + 3] & 3) == 2) {  // bulk ENDPOINT
            if (d[at + 2] & 0x80) p->in_endpoint = d[at + 2] & 0x7F;
            else p->out_endpoint = d[at + 2] & 0x7F;
        } else if (d[at + 1] == 5 && at + 3 < total && interface_class != 0x02 && (d[at + 2] & 0x80) && (d[at + 3] & 3) == 3
                   && p->report_endpoint_count < REPORT_ENDPOINTS) {  // interrupt IN ENDPOINT
            p->report_endpoints[p->report_endpoint_count++] = d[at + 2] & 0x7F;
            cbp_usb_banks_watch(p->banks, d[at + 2] & 0x7F);
        }
    }
    return p->in_endpoint && p->out_endpoint;
}

// A packet from each interrupt IN endpoint that has a bank released, kept in the ring.
static void cbp_usb_reports(cbp_usb_serial *p) {
    for (uint8_t i = 0; i < p->report_endpoint_count; i++) {
        uint8_t packet[PACKET];
        int size = cbp_usb_banks_take(p->banks, p->report_endpoints[i], packet);
        if (size <= 0) continue;
        if (p->report_count == REPORT_RING) {
            p->report_head = (p->report_head + 1) % REPORT_RING;
            p->report_count--;
            p->reports_dropped++;
        }
        uint16_t slot = (p->report_head + p->report_count++) % REPORT_RING;
        p->reports[slot].cycle = p->io.avr->cycle;
        p->reports[slot].endpoint = p->report_endpoints[i];
        p->reports[slot].size = (uint8_t)size;
        memcpy(p->reports[slot].bytes, packet, size);
    }
}

static void cbp_usb_start_of_frame(cbp_usb_serial *p) {
    avr_t *avr = p->io.avr;
    avr->data[p->usb->r_usbcon + UDINT] |= 1 << SOFI;
    if (!(avr->data[p->usb->r_usbcon + UDIEN] & (1 << SOFI))) return;
    for (int i = 0; i < avr->interrupts.vector_count; i++) {
        if (avr->interrupts.vector[i]->vector == p->usb->usb_gen_vect) avr_raise_interrupt(avr, avr->interrupts.vector[i]);
    }
}

static void cbp_usb_room(cbp_usb_serial *p) {
    if (p->step != STEP_READY || !p->xoff || p->fifo_count > FIFO_SIZE / 2) return;
    p->xoff = false;
    avr_raise_irq(p->io.irq + CBP_UART_XON, 1);
}

static void cbp_usb_bulk(cbp_usb_serial *p) {
    uint8_t packet[PACKET];
    uint32_t size = PACKET;
    // A bulk endpoint's NAK comes back as 0 bytes (avr_usb); a disabled one's as NAK.
    if (cbp_usb_io(p, AVR_IOCTL_USB_READ, p->in_endpoint, packet, &size) == 0) {
        for (uint32_t i = 0; i < size; i++) avr_raise_irq(p->io.irq + CBP_UART_OUTPUT, packet[i]);
    }
    if (p->fifo_count == 0) return;
    size = 0;
    while (size < PACKET && size < p->fifo_count) {
        packet[size] = p->fifo[(p->fifo_head + size) % FIFO_SIZE];
        size++;
    }
    uint32_t sent = size;
    if (cbp_usb_io(p, AVR_IOCTL_USB_WRITE, p->out_endpoint, packet, &sent) != 0) return;
    p->fifo_head = (p->fifo_head + size) % FIFO_SIZE;
    p->fifo_count -= size;
    cbp_usb_room(p);
}

// The enumeration's next request once the one before is done.
static void cbp_usb_next_step(cbp_usb_serial *p) {
    static const uint8_t line_coding[7] = { 0x00, 0xC2, 0x01, 0x00, 0, 0, 8 };  // 115200 baud, 8N1
    switch (p->step) {
    case STEP_RESET:
        cbp_usb_control(p, 0x80, 6, 0x0100, 0, NULL, 18);  // GET_DESCRIPTOR device
        p->step = STEP_DEVICE;
        break;
    case STEP_DEVICE:
        cbp_usb_control(p, 0x00, 5, 1, 0, NULL, 0);  // SET_ADDRESS 1
        p->step = STEP_ADDRESS;
        break;
    case STEP_ADDRESS:
        cbp_usb_control(p, 0x80, 6, 0x0200, 0, NULL, 255);  // GET_DESCRIPTOR configuration
        p->step = STEP_CONFIGURATION_DESCRIPTOR;
        break;
    case STEP_CONFIGURATION_DESCRIPTOR:
        if (!cbp_usb_find_cdc(p)) {
            p->step = STEP_FAILED;
            break;
        }
        cbp_usb_control(p, 0x00, 9, 1, 0, NULL, 0);  // SET_CONFIGURATION 1
        p->step = STEP_CONFIGURATION;
        break;
    case STEP_CONFIGURATION:
        cbp_usb_control(p, 0x21, 0x20, 0, p->comm_interface, line_coding, sizeof line_coding);  // SET_LINE_CODING
        p->step = STEP_LINE_CODING;
        break;
    case STEP_LINE_CODING:
        p->step = STEP_READY;
        p->dtr_sent = false;
        p->xoff = true;
        cbp_usb_room(p);
        break;
    default:
        break;
    }
}

static avr_cycle_count_t cbp_usb_poll(avr_t *avr, avr_cycle_count_t when, void *param) {
    cbp_usb_serial *p = param;
    if (p->step == STEP_DETACHED || p->step == STEP_FAILED) {
        p->polling = false;
        return 0;
    }
    if (++p->polls % POLLS_PER_FRAME == 0) {
        cbp_usb_start_of_frame(p);
        if (p->step == STEP_READY) cbp_usb_reports(p);
    }
    avr_cycle_count_t next = when + avr_usec_to_cycles(avr, POLL_MICROS);
    if (p->step == STEP_RESET && p->polls < SETTLE_POLLS) return next;
    if (p->xfer.phase != XFER_DONE) {
        cbp_usb_control_step(p);
        if (p->xfer.phase == XFER_FAILED) p->step = STEP_FAILED;
        if (p->xfer.phase != XFER_DONE) return next;
    }
    if (p->step != STEP_READY) {
        cbp_usb_next_step(p);
    } else if (p->dtr != p->dtr_sent) {
        p->dtr_sent = p->dtr;
        cbp_usb_control(p, 0x21, 0x22, p->dtr ? 3 : 0, p->comm_interface, NULL, 0);  // SET_CONTROL_LINE_STATE: DTR and RTS
    } else {
        cbp_usb_bulk(p);
    }
    return next;
}

// The firmware attached (cleared UDCON.DETACH): reset the bus and enumerate.
static void cbp_usb_attached(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    cbp_usb_serial *p = param;
    if (!value) return;
    avr_ioctl(p->io.avr, AVR_IOCTL_USB_RESET, NULL);
    p->step = STEP_RESET;
    p->xfer.phase = XFER_DONE;
    p->polls = 0;
    if (!p->polling) {
        p->polling = true;
        avr_cycle_timer_register_usec(p->io.avr, POLL_MICROS, cbp_usb_poll, p);
    }
}

// A host byte for the device (AVRUART raises it only after XON, never past XOFF).
static void cbp_usb_input(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    cbp_usb_serial *p = param;
    if (p->fifo_count == FIFO_SIZE) return;
    p->fifo[(p->fifo_head + p->fifo_count) % FIFO_SIZE] = (uint8_t)value;
    if (++p->fifo_count == FIFO_SIZE) {
        p->xoff = true;
        avr_raise_irq(p->io.irq + CBP_UART_XOFF, 1);
    }
}

// A core reset detaches the device until the firmware attaches again.
static void cbp_usb_serial_reset(avr_io_t *io) {
    cbp_usb_serial *p = (cbp_usb_serial *)io;
    avr_cycle_timer_cancel(io->avr, cbp_usb_poll, p);
    p->step = STEP_DETACHED;
    p->xfer.phase = XFER_DONE;
    p->polling = false;
    p->fifo_head = p->fifo_count = 0;
    p->xoff = true;
    p->report_endpoint_count = 0;
}

cbp_usb_serial *cbp_usb_serial_install(avr_t *avr) {
    avr_usb_t *usb = NULL;
    for (avr_io_t *io = avr->io_port; io; io = io->next) {
        if (io->kind && strcmp(io->kind, "usb") == 0) usb = (avr_usb_t *)io;
    }
    avr_irq_t *attach = usb ? avr_io_getirq(avr, AVR_IOCTL_USB_GETIRQ(), USB_IRQ_ATTACH) : NULL;
    if (!attach) return NULL;
    cbp_usb_serial *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->usb = usb;
    p->banks = cbp_usb_banks_install(avr, usb);
    if (!p->banks) {
        free(p);
        return NULL;
    }
    p->dtr = true;  // a listener until told otherwise (cbp_usb_serial_set_dtr)
    p->io.kind = "usb-serial";
    p->io.irq_names = cbp_usb_serial_irq_names;
    p->io.reset = cbp_usb_serial_reset;
    cbp_register_module(avr, &p->io);
    avr_io_setirqs(&p->io, CBP_IOCTL_USB_SERIAL, 4, NULL);
    avr_irq_register_notify(p->io.irq + CBP_UART_INPUT, cbp_usb_input, p);
    avr_irq_register_notify(attach, cbp_usb_attached, p);
    cbp_usb_serial_reset(&p->io);
    return p;
}

cbp_usb_serial *cbp_usb_serial_find(avr_t *avr) {
    avr_io_t *port = avr->io_port;
    while (port && (!port->kind || strcmp(port->kind, "usb-serial") != 0)) port = port->next;
    return (cbp_usb_serial *)port;
}

avr_irq_t *cbp_usb_serial_irq(cbp_usb_serial *p, int which) { return p->io.irq + which; }

void cbp_usb_serial_set_dtr(avr_t *avr, bool dtr) {
    cbp_usb_serial *p = cbp_usb_serial_find(avr);
    if (p) p->dtr = dtr;
}

int cbp_usb_serial_take_report(struct avr_t *avr, uint8_t *endpoint, uint64_t *cycle, uint8_t *bytes, size_t capacity) {
    cbp_usb_serial *p = cbp_usb_serial_find(avr);
    if (!p || p->report_count == 0) return -1;
    uint16_t slot = p->report_head;
    p->report_head = (p->report_head + 1) % REPORT_RING;
    p->report_count--;
    size_t size = p->reports[slot].size < capacity ? p->reports[slot].size : capacity;
    memcpy(bytes, p->reports[slot].bytes, size);
    *endpoint = p->reports[slot].endpoint;
    *cycle = p->reports[slot].cycle;
    return (int)size;
}

uint32_t cbp_usb_serial_reports_dropped(struct avr_t *avr) {
    cbp_usb_serial *p = cbp_usb_serial_find(avr);
    return p ? p->reports_dropped + cbp_usb_banks_dropped(p->banks) : 0;
}
