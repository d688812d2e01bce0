// thermometers: DS18B20s on one 1-Wire line (D2), driven bit by bit with
// the timings of Paul Stoffregen's OneWire library: a reset, the ROM search
// (Maxim's application note 187), CONVERT T polled to its end, then each
// probe's scratchpad by MATCH ROM. Written for the BoardEmulator tests
// (TiltsimWokwiTests); 115200 baud:
//   "probes=<n>"                               after the search
//   "rom=<8 hex bytes> raw=<register> crc=<ok|bad> waited=<ms>"   a line a probe, every 200 ms
#include <Arduino.h>

static const uint8_t mask = 1 << 2;  // PD2

static bool resetPulse() {
    noInterrupts();
    PORTD &= ~mask;
    DDRD |= mask;
    interrupts();
    delayMicroseconds(480);
    noInterrupts();
    DDRD &= ~mask;
    delayMicroseconds(70);
    bool present = !(PIND & mask);
    interrupts();
    delayMicroseconds(410);
    return present;
}

static void writeBit(bool bit) {
    noInterrupts();
    DDRD |= mask;
    delayMicroseconds(bit ? 10 : 65);
    DDRD &= ~mask;
    interrupts();
    delayMicroseconds(bit ? 55 : 5);
}

static bool readBit() {
    noInterrupts();
    DDRD |= mask;
    delayMicroseconds(3);
    DDRD &= ~mask;
    delayMicroseconds(10);
    bool bit = PIND & mask;
    interrupts();
    delayMicroseconds(53);
    return bit;
}

static void writeByte(uint8_t value) {
    for (uint8_t i = 0; i < 8; i++) writeBit(value >> i & 1);
}

static uint8_t readByte() {
    uint8_t value = 0;
    for (uint8_t i = 0; i < 8; i++) value |= (uint8_t)readBit() << i;
    return value;
}

static uint8_t crc8(const uint8_t *bytes, uint8_t count) {
    uint8_t crc = 0;
    while (count--) {
        uint8_t value = *bytes++;
        for (uint8_t i = 0; i < 8; i++) {
            uint8_t mix = (crc ^ value) & 1;
            crc >>= 1;
            if (mix) crc ^= 0x8C;
            value >>= 1;
        }
    }
    return crc;
}

static uint8_t roms[4][8];
static uint8_t found;

// One pass of the search: the next ROM after `rom`, taking 1 at the last discrepancy.
static int8_t searchNext(uint8_t rom[8], int8_t lastDiscrepancy) {
    if (!resetPulse()) return -2;
    writeByte(0xF0);
    int8_t discrepancy = -1;
    for (uint8_t bit = 0; bit < 64; bit++) {
        bool value = readBit(), complement = readBit();
        if (value && complement) return -2;  // nobody answered
        bool direction;
        if (value != complement) {
            direction = value;
        } else {
            direction = bit < lastDiscrepancy ? (rom[bit / 8] >> (bit % 8) & 1) : bit == lastDiscrepancy;
            if (!direction) discrepancy = bit;
        }
        if (direction) rom[bit / 8] |= 1 << (bit % 8); else rom[bit / 8] &= ~(1 << (bit % 8));
        writeBit(direction);
    }
    return discrepancy;
}

void setup() {
    Serial.begin(115200);
    uint8_t rom[8] = {0};
    int8_t last = -1;  // no discrepancy yet: take 0 everywhere first
    while (found < 4) {
        int8_t next = searchNext(rom, last);
        if (next == -2) break;
        memcpy(roms[found++], rom, 8);
        if (next < 0) break;
        last = next;
    }
    Serial.print("probes=");
    Serial.println(found);
}

void loop() {
    resetPulse();
    writeByte(0xCC);  // SKIP ROM: all convert at once
    writeByte(0x44);
    unsigned long start = millis();
    while (!readBit()) {}
    unsigned long waited = millis() - start;
    for (uint8_t p = 0; p < found; p++) {
        resetPulse();
        writeByte(0x55);
        for (uint8_t i = 0; i < 8; i++) writeByte(roms[p][i]);
        writeByte(0xBE);
        uint8_t pad[9];
        for (uint8_t i = 0; i < 9; i++) pad[i] = readByte();
        Serial.print("rom=");
        for (uint8_t i = 0; i < 8; i++) {
            if (roms[p][i] < 16) Serial.print('0');
            Serial.print(roms[p][i], HEX);
        }
        Serial.print(" raw=");
        Serial.print((int16_t)(pad[1] << 8 | pad[0]));
        Serial.print(" crc=");
        Serial.print(crc8(pad, 8) == pad[8] && crc8(roms[p], 7) == roms[p][7] ? "ok" : "bad");
        Serial.print(" waited=");
        Serial.println(waited);
    }
    delay(200);
}
