// dmp_motionapps: a MotionApps-2.0-style DMP start-up and reader, written for
// the BoardEmulator tests with the register and memory protocol of i2cdevlib's
// MPU6050_6Axis_MotionApps20 dmpInitialize and MPU6050_DMP6: device reset,
// the hardware revision through the user bank (BANK_SEL 0x70, address 6),
// slave 0 set-up, clock, INT_ENABLE 0x12, 200 Hz, external sync, DLPF 42 Hz,
// ±2000 °/s, a 1929-byte image written in 16-byte chunks (never across a bank)
// with each chunk read back, the FIFO rate divisor {0x00, 0x01} at bank 2
// address 0x16, the DMP program start (0x70/0x71), motion thresholds, FIFO
// on, DMP reset, DMP off, FIFO reset; then DMP on, INT on D2, and the newest
// 42-byte packet read the way GetCurrentFIFOPacket does. The image is our own
// pseudo-random bytes (the emulator stores and verifies DMP memory; it does not
// run InvenSense's code). Wire at 400 kHz; 115200 baud:
//   "R <rev>"                      the hardware revision byte
//   "I <code>"                     0 started; 1 an image chunk read back wrong; 2 the divisor did
//   "Q <ms> <yaw> <pitch> <roll> <rises>"  every 250 ms: DMP6's yaw/pitch/roll in degrees
//                                  from the newest packet, and INT rises so far
#include <Arduino.h>
#include <Wire.h>

static const uint8_t MPU = 0x68;
static volatile uint16_t rises;

static void on_int(void) { rises++; }

static void put(uint8_t reg, uint8_t value) {
    Wire.beginTransmission(MPU);
    Wire.write(reg);
    Wire.write(value);
    Wire.endTransmission();
}

static void get(uint8_t reg, uint8_t *out, uint8_t count) {
    while (count > 0) {
        uint8_t n = count > 32 ? 32 : count;  // Wire's buffer
        Wire.beginTransmission(MPU);
        Wire.write(reg);
        Wire.endTransmission(false);
        Wire.requestFrom(MPU, n);
        for (uint8_t i = 0; i < n; i++) *out++ = Wire.read();
        count -= n;
    }
}

static uint8_t get8(uint8_t reg) {
    uint8_t v;
    get(reg, &v, 1);
    return v;
}

/// Read-modify-write of one bit, as i2cdevlib's writeBit does.
static void put_bit(uint8_t reg, uint8_t bit, bool on) {
    uint8_t v = get8(reg);
    put(reg, on ? (uint8_t)(v | (1 << bit)) : (uint8_t)(v & ~(1 << bit)));
}

static void memory_at(uint8_t bank, uint8_t address) {
    put(0x6D, bank);
    put(0x6E, address);
}

static uint32_t lcg = 0x2545F491;
static uint8_t image_byte(void) {
    lcg = lcg * 1103515245UL + 12345UL;
    return (uint8_t)(lcg >> 16);
}

static const uint8_t divisor[2] = { 0x00, 0x01 };
static uint8_t divisor_index;
static uint8_t divisor_byte(void) { return divisor[divisor_index++]; }

/// Writes `size` bytes from `next` into DMP memory, each chunk read back.
static bool write_memory(uint16_t size, uint8_t bank, uint8_t address, uint8_t (*next)(void)) {
    memory_at(bank, address);
    uint8_t chunk[16], back[16];
    for (uint16_t i = 0; i < size;) {
        uint16_t n = 16;
        if (i + n > size) n = size - i;
        if (n > 256u - address) n = 256u - address;
        for (uint8_t k = 0; k < n; k++) chunk[k] = next();
        Wire.beginTransmission(MPU);
        Wire.write(0x6F);
        Wire.write(chunk, (uint8_t)n);
        Wire.endTransmission();
        memory_at(bank, address);
        get(0x6F, back, (uint8_t)n);
        if (memcmp(chunk, back, n) != 0) return false;
        i += n;
        address += (uint8_t)n;
        if (i < size) {
            if (address == 0) bank++;
            memory_at(bank, address);
        }
    }
    return true;
}

static uint16_t fifo_count(void) {
    uint8_t b[2];
    get(0x72, b, 2);
    return (uint16_t)b[0] << 8 | b[1];
}

static uint8_t start_dmp(void) {
    put_bit(0x6B, 7, true);  // DEVICE_RESET
    delay(30);
    put_bit(0x6B, 6, false);  // awake
    memory_at(0x70, 0x06);    // user bank 16 (prefetch), address 6
    Serial.print("R ");
    Serial.println(get8(0x6F));
    memory_at(0x00, 0x00);
    (void)(get8(0x00) & 1);  // OTP bank valid
    put(0x25, 0x7F);          // I2C_SLV0_ADDR
    put_bit(0x6A, 5, false);  // I2C_MST_EN off
    put(0x25, 0x68);
    put_bit(0x6A, 1, true);   // I2C_MST_RESET
    delay(20);
    put(0x6B, (get8(0x6B) & 0xF8) | 0x03);  // clock: PLL with Z gyro
    put(0x38, 0x12);                          // FIFO_OFLOW and DMP interrupts
    put(0x19, 4);                             // 1 kHz / (1 + 4) = 200 Hz
    put(0x1A, (1 << 3) | 3);                  // EXT_SYNC_SET TEMP_OUT_L, DLPF 42 Hz
    put(0x1B, 3 << 3);                        // ±2000 °/s
    if (!write_memory(1929, 0, 0, image_byte)) return 1;
    divisor_index = 0;
    if (!write_memory(2, 0x02, 0x16, divisor_byte)) return 2;
    put(0x70, 0x03);  // DMP program start, high
    put(0x71, 0x00);  // and low
    put_bit(0x00, 0, false);
    put(0x1F, 2);     // MOT_THR
    put(0x21, 156);   // ZRMOT_THR
    put(0x20, 80);    // MOT_DUR
    put(0x22, 0);     // ZRMOT_DUR
    put_bit(0x6A, 6, true);   // FIFO_EN
    put_bit(0x6A, 3, true);   // DMP_RESET
    put_bit(0x6A, 7, false);  // DMP off until the sketch is ready
    put_bit(0x6A, 2, true);   // FIFO_RESET
    get8(0x3A);
    return 0;
}

/// The newest packet, as i2cdevlib's GetCurrentFIFOPacket finds it.
static bool newest_packet(uint8_t packet[42]) {
    uint16_t count = fifo_count();
    if (count > 200) {  // older than it is worth reading (and maybe overflowed): start over
        put_bit(0x6A, 2, true);
        uint32_t start = millis();
        while ((count = fifo_count()) < 42 && millis() - start < 100) {}
    }
    if (count < 42) return false;
    uint8_t trash[32];
    while (count > 42) {
        uint16_t n = count - 42;
        get(0x74, trash, n > 32 ? 32 : (uint8_t)n);
        count -= n > 32 ? 32 : n;
    }
    get(0x74, packet, 42);
    return true;
}

static int16_t word16(const uint8_t *p) { return (int16_t)((uint16_t)p[0] << 8 | p[1]); }

void setup() {
    Serial.begin(115200);
    Wire.begin();
    Wire.setClock(400000);
    uint8_t code = start_dmp();
    Serial.print("I ");
    Serial.println(code);
    if (code != 0) return;
    put_bit(0x6A, 7, true);  // DMP on
    pinMode(2, INPUT);
    attachInterrupt(digitalPinToInterrupt(2), on_int, RISING);
    get8(0x3A);
}

void loop() {
    static uint32_t next = 500;
    if (millis() < next) return;
    next += 250;
    uint8_t p[42];
    if (!newest_packet(p)) return;
    // Quaternion: the high 16 bits of each Q30 word, 16384 = 1.
    float w = word16(p) / 16384.0f, x = word16(p + 4) / 16384.0f;
    float y = word16(p + 8) / 16384.0f, z = word16(p + 12) / 16384.0f;
    // Gravity in the sensor frame, then DMP6's yaw/pitch/roll.
    float gx = 2 * (x * z - w * y), gy = 2 * (w * x + y * z), gz = w * w - x * x - y * y + z * z;
    float yaw = atan2(2 * x * y - 2 * w * z, 2 * w * w + 2 * x * x - 1);
    float pitch = atan2(gx, sqrt(gy * gy + gz * gz));
    float roll = atan2(gy, gz);
    if (gz < 0) pitch = (pitch > 0 ? PI : -PI) - pitch;
    Serial.print("Q ");
    Serial.print(millis());
    Serial.print(' ');
    Serial.print(yaw * 180 / PI, 2);
    Serial.print(' ');
    Serial.print(pitch * 180 / PI, 2);
    Serial.print(' ');
    Serial.print(roll * 180 / PI, 2);
    Serial.print(' ');
    Serial.println(rises);
}
