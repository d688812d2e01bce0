// int_pin: where the MPU-6050's INT pin is wired, for `tiltsim --sensor-int` /
// `tiltsim run --sensor-int` and `--sensor-address`. Written for the
// BoardEmulator tests; 115200 baud:
//   "A <addr hex>"              the address that answered (0x68, or 0x69 with AD0 high; "none")
//   "I d2=<n> d3=<n> d8=<n> a0=<n>"  DATA_RDY latched at 100 Hz for 200 ms:
//                               how often each pin was seen high (then
//                               INT_STATUS read, which lowers it)
//   "E"                         done
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

void setup() {
    static const uint8_t pins[] = {2, 3, 8, A0};
    uint16_t seen[4] = {0, 0, 0, 0};
    Serial.begin(115200);
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
    Serial.print("I d2=");
    Serial.print(seen[0]);
    Serial.print(" d3=");
    Serial.print(seen[1]);
    Serial.print(" d8=");
    Serial.print(seen[2]);
    Serial.print(" a0=");
    Serial.println(seen[3]);
    Serial.println('E');
}

void loop() {}
