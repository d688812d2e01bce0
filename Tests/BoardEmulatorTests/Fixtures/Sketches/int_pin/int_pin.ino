// int_pin: where the MPU-6050's INT pin is wired, for `tiltsim --sensor-int` /
// `tiltsim run --sensor-int` and `--sensor-address`. Written for the
// BoardEmulator tests; 115200 baud:
//   "A <addr hex>"              the address that answered (0x68, or 0x69 with AD0 high; "none")
//   "I d2=<n> d3=<n> d8=<n> a0=<n>"  DATA_RDY latched at 100 Hz for 200 ms:
//                               how often each pin was seen high (then
//                               INT_STATUS read, which lowers it); on the
//                               Leonardo "I d7=… d4=… d8=… a0=…" (its D2/D3 are the bus)
//   "E"                         done
// Built for the Uno, and for the Leonardo (build/sketches-leonardo), where
// Serial is the chip's own USB: it waits for the host's DTR, as such sketches do.
#include <Arduino.h>
#include <Wire.h>

static uint8_t mpu;

static bool ack(uint8_t address) {
    Wire.beginTransmission(address);
    return Wire.endTransmission() == 0;
}

static void put(uint8_t reg, uint8_t value) {
    Wire.beginTransmission(mpu);
    Wire.write(reg);
    Wire.write(value);
    Wire.endTransmission();
}

static void clear_status(void) {
    Wire.beginTransmission(mpu);
    Wire.write(0x3A);
    Wire.endTransmission(false);
    Wire.requestFrom(mpu, (uint8_t)1);
    Wire.read();
}

#if defined(USBCON)
static const uint8_t pins[] = {7, 4, 8, A0};
static const char *const names[] = {"d7", "d4", "d8", "a0"};
#else
static const uint8_t pins[] = {2, 3, 8, A0};
static const char *const names[] = {"d2", "d3", "d8", "a0"};
#endif

void setup() {
    uint16_t seen[4] = {0, 0, 0, 0};
    Serial.begin(115200);
#if defined(USBCON)
    while (!Serial) {}
#endif
    Wire.begin();
    Wire.setClock(400000);
    for (uint8_t i = 0; i < 4; i++) pinMode(pins[i], INPUT);
    mpu = ack(0x68) ? 0x68 : ack(0x69) ? 0x69 : 0;
    Serial.print("A ");
    if (mpu) Serial.println(mpu, HEX); else Serial.println("none");
    if (mpu) {
        put(0x6B, 0x01);  // awake, PLL clock
        put(0x1A, 0x03);  // DLPF 44 Hz: 1 kHz gyro rate
        put(0x19, 9);     // 100 Hz
        put(0x37, 0x20);  // active high, latched until INT_STATUS is read
        put(0x38, 0x01);  // DATA_RDY_EN
        clear_status();
        uint32_t start = millis();
        while (millis() - start < 200) {
            for (uint8_t i = 0; i < 4; i++) {
                if (digitalRead(pins[i])) {
                    seen[i]++;
                    clear_status();
                }
            }
        }
    }
    Serial.print('I');
    for (uint8_t i = 0; i < 4; i++) {
        Serial.print(' ');
        Serial.print(names[i]);
        Serial.print('=');
        Serial.print(seen[i]);
    }
    Serial.println();
    Serial.println('E');
}

void loop() {}
