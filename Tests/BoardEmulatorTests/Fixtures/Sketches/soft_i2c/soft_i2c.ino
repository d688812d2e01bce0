// soft_i2c: an I2C master that toggles SDA and SCL itself (the TWI never
// enabled), on the board's own SDA/SCL pins, in the two ways libraries do it.
// Written for the BoardEmulator tests; 115200 baud.
//   - Open drain (SoftwareWire, SoftI2CMaster, U8g2's default SW_I2C): a line
//     is let go with pinMode(INPUT), no internal pull-up, and rises through
//     the modules' pull-ups; pulled low with OUTPUT LOW; ACKs and read bits
//     are read back from the pin.
//   - Push-pull (U8g2's fast AVR path): both lines driven high and low, the
//     ACK clock given with SDA driven high and never read.
// Prints:
//   "K <68> <50> <3C>"   1 when that address acknowledged (0x50: nobody there)
//   "W <hh>"             WHO_AM_I of the MPU-6050 at 0x68
//   "A <ax> <ay> <az>"   the accelerometer (a burst of 6 from 0x3B) after PWR_MGMT_1 = 0
//   "D"                  the display set up (open drain) and filled with a pattern
//                        (push-pull): page p, column c holds (p * 128 + c) * 7 + p
//   "E"                  done with the TWI off
//   "B"                  then, once a 'w' comes in on serial, Wire.begin() (the TWI takes the pins) and SCL
//                        toggled as a pin four times: on the chip that reaches
//                        nothing, and tiltsim says so
#include <Arduino.h>
#include <Wire.h>

static bool push_pull = false;

static void line(uint8_t pin, bool high) {
    if (push_pull) {
        digitalWrite(pin, high ? HIGH : LOW);
    } else if (high) {
        pinMode(pin, INPUT);  // released: the pull-up lifts it
    } else {
        digitalWrite(pin, LOW);
        pinMode(pin, OUTPUT);
    }
}

static void bus_start(void) {
    line(SDA, true);
    line(SCL, true);
    line(SDA, false);
    line(SCL, false);
}

static void bus_stop(void) {
    line(SDA, false);
    line(SCL, true);
    line(SDA, true);
}

/// Sends a byte; true when the slave pulled SDA low in the ninth clock.
static bool bus_write(uint8_t byte) {
    for (uint8_t bit = 0; bit < 8; bit++) {
        line(SDA, byte & 0x80);
        line(SCL, true);
        line(SCL, false);
        byte <<= 1;
    }
    line(SDA, true);
    line(SCL, true);
    bool ack = !push_pull && digitalRead(SDA) == LOW;
    line(SCL, false);
    return ack;
}

static uint8_t bus_read(bool ack) {
    uint8_t byte = 0;
    line(SDA, true);
    for (uint8_t bit = 0; bit < 8; bit++) {
        line(SCL, true);
        byte = (uint8_t)(byte << 1 | (digitalRead(SDA) == HIGH));
        line(SCL, false);
    }
    line(SDA, !ack);
    line(SCL, true);
    line(SCL, false);
    line(SDA, true);
    return byte;
}

static bool probe(uint8_t address) {
    bus_start();
    bool ack = bus_write(address << 1);
    bus_stop();
    return ack;
}

static void read_registers(uint8_t address, uint8_t reg, uint8_t *out, uint8_t count) {
    bus_start();
    bus_write(address << 1);
    bus_write(reg);
    bus_start();  // repeated START
    bus_write(address << 1 | 1);
    for (uint8_t i = 0; i < count; i++) out[i] = bus_read(i + 1 < count);
    bus_stop();
}

static void write_register(uint8_t address, uint8_t reg, uint8_t value) {
    bus_start();
    bus_write(address << 1);
    bus_write(reg);
    bus_write(value);
    bus_stop();
}

static void hex(uint8_t v) {
    if (v < 16) Serial.print('0');
    Serial.print(v, HEX);
}

void setup() {
    Serial.begin(115200);
    while (!Serial) {}
    line(SDA, true);
    line(SCL, true);

    Serial.print("K ");
    Serial.print(probe(0x68));
    Serial.print(' ');
    Serial.print(probe(0x50));
    Serial.print(' ');
    Serial.println(probe(0x3C));

    uint8_t who;
    read_registers(0x68, 0x75, &who, 1);
    Serial.print("W ");
    hex(who);
    Serial.println();

    write_register(0x68, 0x6B, 0x00);
    uint8_t raw[6];
    read_registers(0x68, 0x3B, raw, 6);
    Serial.print("A");
    for (uint8_t i = 0; i < 6; i += 2) {
        Serial.print(' ');
        Serial.print((int16_t)(raw[i] << 8 | raw[i + 1]));
    }
    Serial.println();

    // U8g2's SSD1306 set-up, open drain: horizontal addressing over the whole
    // RAM, upright (0xA1, 0xC8), charge pump on, display on.
    static const uint8_t setup_commands[] = { 0xAE, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7, 0xA1, 0xC8, 0x8D, 0x14, 0xAF };
    bus_start();
    bus_write(0x3C << 1);
    bus_write(0x00);
    for (uint8_t i = 0; i < sizeof setup_commands; i++) bus_write(setup_commands[i]);
    bus_stop();

    push_pull = true;
    digitalWrite(SDA, HIGH);  // high first, then driven: no edge on the way
    digitalWrite(SCL, HIGH);
    pinMode(SDA, OUTPUT);
    pinMode(SCL, OUTPUT);
    bus_start();
    bus_write(0x3C << 1);
    bus_write(0x40);
    for (uint16_t i = 0; i < 1024; i++) bus_write((uint8_t)(i * 7 + (i >> 7)));
    bus_stop();
    Serial.println("D");
    Serial.println("E");

    while (Serial.read() != 'w') {}
    Wire.begin();
    for (uint8_t i = 0; i < 4; i++) {
        line(SCL, false);
        line(SCL, true);
    }
    Serial.println("B");
}

void loop() {}
