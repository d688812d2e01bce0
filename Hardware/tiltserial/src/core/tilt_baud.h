/* The sketch's serial line rate, from the chip it is built for: 115200 baud,
 * but 38400 on an ATmega328P at 8 MHz (the 3.3 V Pro Mini), whose UART makes
 * 115200 3.5 % slow (8 MHz / 8 / 9 = 111 111), more than a receiver takes;
 * 38400 is 0.2 % fast there. The ATmega32U4's USB ignores the rate. Here,
 * not in the build's flags, so the Arduino IDE's build gets it right too. */
#ifndef TILT_BAUD_H
#define TILT_BAUD_H

#ifdef __AVR__
#include <avr/io.h> /* USBCON on a chip with USB */
#endif

#if defined(F_CPU) && F_CPU == 8000000UL && !defined(USBCON)
#define TILT_SERIAL_BAUD 38400
#else
#define TILT_SERIAL_BAUD 115200
#endif

#endif
