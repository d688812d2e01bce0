// An interrupt IN endpoint's banks as the ATmega32U4 has them: a bank the
// firmware releases (FIFOCON cleared: the Arduino core's ReleaseTX after each
// HID report) is the host's until its next poll takes it as one packet, and
// with every bank the endpoint has (two, EP_DOUBLE_64) so held, RWAL reads 0
// and the firmware waits (USB_SendSpace returns 0; the core's USB_Send then
// delays a millisecond at a time).
//
// Why: simavr 1.6 keeps one bank an endpoint and hands it to the firmware
// again at once, so reports written between two host polls were appended to
// one another: Keyboard.print("Hi") reached the host as one 36-byte packet
// (a PC reads the first report of it), sent in 200 µs where a board takes
// about 2 ms. Here each released bank is read out at once into the
// endpoint's queue, as many as it has banks, and the host model's poll
// (cbp_usb_serial.c, once a millisecond) takes the oldest.
#include "CBoardParts.h"

#include <stdlib.h>
#include <string.h>

#include <avr_usb.h>
#include <sim_avr.h>
#include <sim_io.h>

enum {
    CBP_USB_ENDPOINTS = 7,       // UENUM's range on the 32U4 (endpoints 0-6)
    CBP_USB_PACKET = 64,
    CBP_USB_BANKS_MAX = 2,
    UEINTX = 16, UENUM = 17, UECFG1X = 21,  // avr_usb's register offsets from USBCON
    RWAL = 5,
};

typedef struct {
    bool watched;
    uint8_t banks;  // from UECFG1X.EPBK: 1 or 2
    uint8_t count;  // released banks the host has not taken
    struct { uint8_t size, bytes[CBP_USB_PACKET]; } packets[CBP_USB_BANKS_MAX];
} cbp_usb_endpoint_banks;

struct cbp_usb_banks {
    avr_io_t io;  // first member: cbp_avr_destroy frees the module through it
    avr_usb_t *usb;
    avr_io_read_t read_ueintx;  // simavr's handler, called first
    void *read_ueintx_param;
    cbp_usb_endpoint_banks endpoints[CBP_USB_ENDPOINTS];
    uint32_t dropped;
};

static uint8_t cbp_usb_selected(cbp_usb_banks *b) { return b->io.avr->data[b->usb->r_usbcon + UENUM] & 7; }

// A write to UEINTX may have released the selected endpoint's bank: if so,
// simavr's host read takes it now (it answers NAK to a bank not released).
static void cbp_usb_banks_ueintx_written(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)addr; (void)value;
    cbp_usb_banks *b = param;
    uint8_t endpoint = cbp_usb_selected(b);
    if (endpoint >= CBP_USB_ENDPOINTS || !b->endpoints[endpoint].watched) return;
    uint8_t packet[CBP_USB_PACKET];
    struct avr_io_usb read = { endpoint, sizeof packet, packet };
    if (avr_ioctl(avr, AVR_IOCTL_USB_READ, &read) != 0 || read.sz == 0) return;  // not released, or a zero-length packet
    cbp_usb_endpoint_banks *e = &b->endpoints[endpoint];
    if (e->count == e->banks) {  // written with no bank free: the chip would have lost it too
        b->dropped++;
        return;
    }
    e->packets[e->count].size = (uint8_t)read.sz;
    memcpy(e->packets[e->count].bytes, packet, read.sz);
    e->count++;
}

// RWAL: 0 while every bank of the selected endpoint waits for the host.
static uint8_t cbp_usb_banks_ueintx_read(avr_t *avr, avr_io_addr_t addr, void *param) {
    cbp_usb_banks *b = param;
    uint8_t value = b->read_ueintx(avr, addr, b->read_ueintx_param);
    uint8_t endpoint = cbp_usb_selected(b);
    if (endpoint < CBP_USB_ENDPOINTS && b->endpoints[endpoint].watched && b->endpoints[endpoint].count == b->endpoints[endpoint].banks) {
        value &= (uint8_t)~(1u << RWAL);
    }
    return value;
}

static void cbp_usb_banks_cfg1x_written(avr_t *avr, avr_io_addr_t addr, uint8_t value, void *param) {
    (void)avr; (void)addr;
    cbp_usb_banks *b = param;
    uint8_t endpoint = cbp_usb_selected(b);
    if (endpoint < CBP_USB_ENDPOINTS) b->endpoints[endpoint].banks = (value >> 2 & 3) ? 2 : 1;
}

void cbp_usb_banks_watch(cbp_usb_banks *b, uint8_t endpoint) {
    if (b && endpoint < CBP_USB_ENDPOINTS) b->endpoints[endpoint].watched = true;
}

int cbp_usb_banks_take(cbp_usb_banks *b, uint8_t endpoint, uint8_t *bytes) {
    if (!b || endpoint >= CBP_USB_ENDPOINTS || b->endpoints[endpoint].count == 0) return -1;
    cbp_usb_endpoint_banks *e = &b->endpoints[endpoint];
    int size = e->packets[0].size;
    memcpy(bytes, e->packets[0].bytes, (size_t)size);
    e->count--;
    memmove(&e->packets[0], &e->packets[1], sizeof e->packets[0] * e->count);
    return size;
}

// A core reset: nothing watched until the host enumerates again.
static void cbp_usb_banks_reset(avr_io_t *io) {
    cbp_usb_banks *b = (cbp_usb_banks *)io;
    for (int i = 0; i < CBP_USB_ENDPOINTS; i++) b->endpoints[i] = (cbp_usb_endpoint_banks){ .banks = 1 };
}

cbp_usb_banks *cbp_usb_banks_install(avr_t *avr, avr_usb_t *usb) {
    uint16_t ueintx = usb->r_usbcon + UEINTX;
    avr_io_addr_t io = AVR_DATA_TO_IO(ueintx);
    if (!avr->io[io].r.c) return NULL;  // not simavr 1.6's USB model
    cbp_usb_banks *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->usb = usb;
    b->io.kind = "usb-banks";
    b->io.reset = cbp_usb_banks_reset;
    cbp_register_module(avr, &b->io);
    cbp_usb_banks_reset(&b->io);
    // avr_register_io_read aborts on a second handler: the slot is taken over in place.
    b->read_ueintx = avr->io[io].r.c;
    b->read_ueintx_param = avr->io[io].r.param;
    avr->io[io].r.c = cbp_usb_banks_ueintx_read;
    avr->io[io].r.param = b;
    if (!cbp_io_after(avr, ueintx, cbp_usb_banks_ueintx_written, b)) return NULL;
    if (!cbp_io_after(avr, usb->r_usbcon + UECFG1X, cbp_usb_banks_cfg1x_written, b)) return NULL;
    return b;
}

uint32_t cbp_usb_banks_dropped(cbp_usb_banks *b) { return b ? b->dropped : 0; }
