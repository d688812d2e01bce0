// add3 is in src/asm/add3.S: the IDE builds src/ recursively.
#pragma once
#include <stdint.h>
extern "C" uint8_t add3(uint8_t x);
