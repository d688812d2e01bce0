// lib_user: a sketch with a library of its own (Fixtures/Libraries/TiltGreeting,
// given to Hardware/sketch.mk as LIBS) and one the core ships (SPI). Prints
// "hello from TiltGreeting 42", then "SPI <SPCR>" once SPI.begin() ran.
#include <SPI.h>
#include <TiltGreeting.h>

TiltGreeting greeting(Serial);

void setup() {
    Serial.begin(115200);
    greeting.greet();
    SPI.begin();
    Serial.print("SPI ");
    Serial.println(SPCR, HEX);
}

void loop() {}
