// A library laid out as the Arduino IDE keeps them (src/, a subfolder,
// examples/, test/), for Hardware/sketch.mk's LIBS: built by the fixtures.
#pragma once
#include <Arduino.h>

class TiltGreeting {
public:
    explicit TiltGreeting(Print &out) : out(out) {}
    /// Prints "hello from TiltGreeting N" (N from the C file in src/utility).
    void greet();

private:
    Print &out;
};
