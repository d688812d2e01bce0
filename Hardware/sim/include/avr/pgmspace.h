/* Host stand-in for avr-libc's pgmspace.h, so assets.h compiles into the checker. */
#pragma once
#define PROGMEM
