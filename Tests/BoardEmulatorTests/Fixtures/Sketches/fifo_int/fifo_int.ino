// fifo_int: the MPU-6050's INT pin (wired to D2 / INT0), FIFO and offset
// registers, through Wire at 400 kHz. Written for the BoardEmulator tests;
// 115200 baud, one line per check:
//   "A <addr hex>"            the address that answered WHO_AM_I (0x68, or 0x69 with AD0 high)
//   "P <count> <period> <width>"  pulses on D2 in 1 s of DATA_RDY at 100 Hz
//                             (CONFIG 3, SMPLRT_DIV 9, INT_PIN_CFG 0: 50 us
//                             active-high pulses): count, µs between the first
//                             and second rise, µs the first pulse stayed high
//   "L <high> <held> <after>" latched (INT_PIN_CFG 0x20): the pin rose, was
//                             still high 3 ms later, low after reading INT_STATUS
//   "N <idle> <falls>"        active low (0x80): idle level, falling edges in 200 ms
//   "F <count> <12 bytes>"    FIFO of accel + gyro (FIFO_EN 0x78) 45 ms after a
//                             reset: the count, then the first record
//   "O <count> <status>"      1.2 s later, unread: FIFO_COUNT and INT_STATUS (overflow bit 0x10)
//   "Z <count>"               after FIFO_RESET
//   "K <ax> <gz>"             accel X and gyro Z after XA_OFFS = 1000, ZG_OFFS_USR = -50
//   "C <count>"               pulses in 1 s of cycle mode at 20 Hz (PWR_MGMT_2 0x80)
//   "S <count>"               pulses in 0.5 s asleep
//   "E"                       done
#include <Arduino.h>
#include <Wire.h>

static uint8_t mpu = 0x68;
static volatile uint16_t rises, falls;
static volatile uint32_t first_rise, second_rise, first_fall;

static void on_change(void) {
    uint32_t now = micros();
    if (digitalRead(2)) {
        if (rises == 0) first_rise = now;
        else if (rises == 1) second_rise = now;
        rises++;
    } else {
        if (falls == 0) first_fall = now;
        falls++;
    }
}

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

static void put16(uint8_t reg, int16_t value) {
    Wire.beginTransmission(mpu);
    Wire.write(reg);
    Wire.write((uint8_t)((uint16_t)value >> 8));
    Wire.write((uint8_t)value);
    Wire.endTransmission();
}

static void get(uint8_t reg, uint8_t *out, uint8_t count) {
    Wire.beginTransmission(mpu);
    Wire.write(reg);
    Wire.endTransmission(false);
    Wire.requestFrom(mpu, count);
    for (uint8_t i = 0; i < count; i++) out[i] = Wire.read();
}

static uint8_t get8(uint8_t reg) {
    uint8_t v;
    get(reg, &v, 1);
    return v;
}

static uint16_t fifo_count(void) {
    uint8_t b[2];
    get(0x72, b, 2);
    return (uint16_t)b[0] << 8 | b[1];
}

static void hex(uint8_t v) {
    if (v < 16) Serial.print('0');
    Serial.print(v, HEX);
}

static void count_edges(uint16_t ms) {
    noInterrupts();
    rises = falls = 0;
    interrupts();
    delay(ms);
}

void setup() {
    Serial.begin(115200);
    Wire.begin();
    Wire.setClock(400000);
    pinMode(2, INPUT);
    if (!ack(0x68) && ack(0x69)) mpu = 0x69;
    Serial.print("A ");
    hex(mpu);
    Serial.println();

    put(0x6B, 0x01);  // awake, PLL clock
    put(0x1A, 0x03);  // DLPF 44 Hz: 1 kHz gyro rate
    put(0x19, 9);     // 100 Hz
    put(0x37, 0x00);  // active high, push-pull, 50 us pulse, cleared by reading INT_STATUS
    put(0x38, 0x01);  // DATA_RDY_EN
    attachInterrupt(digitalPinToInterrupt(2), on_change, CHANGE);
    count_edges(1000);
    Serial.print("P ");
    Serial.print(rises);
    Serial.print(' ');
    Serial.print(second_rise - first_rise);
    Serial.print(' ');
    Serial.println(first_fall - first_rise);

    put(0x37, 0x20);  // latched until INT_STATUS is read
    get8(0x3A);
    uint32_t start = millis();
    while (!digitalRead(2) && millis() - start < 100) {}
    uint8_t high = digitalRead(2);
    delay(3);
    uint8_t held = digitalRead(2);
    get8(0x3A);
    uint8_t after = digitalRead(2);
    Serial.print("L ");
    Serial.print(high);
    Serial.print(' ');
    Serial.print(held);
    Serial.print(' ');
    Serial.println(after);

    put(0x37, 0x80);  // active low, pulses
    delay(2);
    uint8_t idle = digitalRead(2);
    count_edges(200);
    Serial.print("N ");
    Serial.print(idle);
    Serial.print(' ');
    Serial.println(falls);
    put(0x37, 0x00);

    put(0x38, 0x00);  // no interrupts while the FIFO fills
    put(0x23, 0x78);  // FIFO_EN: gyro X, Y, Z and accel
    put(0x6A, 0x44);  // USER_CTRL: FIFO on, FIFO reset
    delay(45);
    uint16_t n = fifo_count();
    uint8_t record[12];
    get(0x74, record, 12);
    Serial.print("F ");
    Serial.print(n);
    Serial.print(' ');
    for (uint8_t i = 0; i < 12; i++) hex(record[i]);
    Serial.println();

    delay(1200);
    n = fifo_count();
    uint8_t status = get8(0x3A);
    Serial.print("O ");
    Serial.print(n);
    Serial.print(' ');
    hex(status);
    Serial.println();
    put(0x6A, 0x44);
    Serial.print("Z ");
    Serial.println(fifo_count());
    put(0x6A, 0x00);
    put(0x23, 0x00);

    put16(0x06, 1000);  // XA_OFFS
    put16(0x17, -50);   // ZG_OFFS_USR
    delay(200);          // through the low-pass filter
    uint8_t burst[14];
    get(0x3B, burst, 14);
    Serial.print("K ");
    Serial.print((int16_t)((uint16_t)burst[0] << 8 | burst[1]));
    Serial.print(' ');
    Serial.println((int16_t)((uint16_t)burst[12] << 8 | burst[13]));
    put16(0x06, 0);
    put16(0x17, 0);

    put(0x38, 0x01);
    put(0x6C, 0x80);  // LP_WAKE_CTRL 20 Hz
    put(0x6B, 0x21);  // CYCLE
    count_edges(1000);
    Serial.print("C ");
    Serial.println(rises);
    put(0x6B, 0x41);  // SLEEP
    count_edges(500);
    Serial.print("S ");
    Serial.println(rises);
    Serial.println('E');
}

void loop() {}
