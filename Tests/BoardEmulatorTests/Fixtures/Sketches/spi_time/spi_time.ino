// spi_time: a fixture sketch that times SPI.transfer at the fastest clock
// (8 MHz: 2 CPU cycles a bit) and the slowest (125 kHz: 128 cycles a bit),
// 200 bytes each with micros(), and an interrupt-driven byte (SPIE). Prints
// "name=value" lines, then "done".
#include <SPI.h>

static volatile uint8_t spiCalls;
ISR(SPI_STC_vect) { spiCalls++; }

static unsigned long timeBytes(uint32_t clock, uint8_t count) {
    SPI.beginTransaction(SPISettings(clock, MSBFIRST, SPI_MODE0));
    unsigned long start = micros();
    for (uint8_t i = 0; i < count; i++) SPI.transfer(i);
    unsigned long took = micros() - start;
    SPI.endTransaction();
    return took;
}

void setup() {
    Serial.begin(115200);
    SPI.begin();
    unsigned long fast = timeBytes(8000000, 200);
    unsigned long slow = timeBytes(125000, 200);
    Serial.print(F("fast_200_us="));
    Serial.println(fast);
    Serial.print(F("slow_200_us="));
    Serial.println(slow);
    // One byte at 1 MHz (SPR0: clk/16) with its interrupt: served 8 µs later.
    SPCR = (uint8_t)((SPCR & ~(_BV(SPR1) | _BV(SPR0))) | _BV(SPIE) | _BV(SPR0));
    SPSR &= ~_BV(SPI2X);
    SPDR = 0x5A;
    delayMicroseconds(4);
    uint8_t early = spiCalls;
    delayMicroseconds(10);
    Serial.print(F("spie_calls_at_4us="));
    Serial.println(early);
    Serial.print(F("spie_calls_at_14us="));
    Serial.println(spiCalls);
    Serial.println(F("done"));
}

void loop() {}
