// polling_twi: a register-level TWI master that polls TWINT (no Wire, no TWI
// interrupt), the access pattern of i2cdevlib's Fastwire and of many
// bare-metal drivers. Written for the BoardEmulator tests; 115200 baud:
//   "I <v>"             TWINT as read right after writing 1 to it (0: cleared)
//   "S <ss> ..."        every TWSR status of reading WHO_AM_I and the next register
//                       of the MPU-6050 at 0x68 (START, SLA+W, data, repeated START,
//                       SLA+R, data with ACK, data with NACK)
//   "W <hh> <hh>"       the two bytes read
//   "N <ss> <ss> <ss>"  SLA+W to 0x50 (nobody there), a data byte after it, SLA+R to 0x50
//   "T <twbr> <twps> <cycles>"  CPU cycles (Timer1) for one such read, per bus speed
//   "E"                 done
#include <Arduino.h>

static void hex(uint8_t v) {
    if (v < 16) Serial.print('0');
    Serial.print(v, HEX);
}

static uint8_t wait_twint(void) {
    while (!(TWCR & _BV(TWINT))) {}
    return TWSR & 0xF8;
}

static uint8_t twi_start(void) {
    TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWEN);
    return wait_twint();
}

static uint8_t twi_send(uint8_t byte) {
    TWDR = byte;
    TWCR = _BV(TWINT) | _BV(TWEN);
    return wait_twint();
}

static uint8_t twi_receive(bool ack, uint8_t *out) {
    TWCR = _BV(TWINT) | _BV(TWEN) | (ack ? _BV(TWEA) : 0);
    uint8_t status = wait_twint();
    *out = TWDR;
    return status;
}

static void twi_stop(void) {
    TWCR = _BV(TWINT) | _BV(TWSTO) | _BV(TWEN);
    while (TWCR & _BV(TWSTO)) {}
}

/// Reads two registers from 0x75 on; the statuses go to `status[7]`.
static void read_who_am_i(uint8_t status[7], uint8_t data[2]) {
    status[0] = twi_start();
    status[1] = twi_send(0x68 << 1);
    status[2] = twi_send(0x75);
    status[3] = twi_start();
    status[4] = twi_send((0x68 << 1) | 1);
    status[5] = twi_receive(true, &data[0]);
    status[6] = twi_receive(false, &data[1]);
    twi_stop();
}

static void timed_read(uint8_t twbr, uint8_t twps) {
    TWBR = twbr;
    TWSR = twps;
    uint8_t status[7], data[2];
    TCCR1A = 0;
    TCCR1B = _BV(CS10);  // CPU clock, no prescaler
    TCNT1 = 0;
    read_who_am_i(status, data);
    uint16_t cycles = TCNT1;
    Serial.print("T ");
    Serial.print(twbr);
    Serial.print(' ');
    Serial.print(twps);
    Serial.print(' ');
    Serial.println(cycles);
}

void setup() {
    Serial.begin(115200);
    TWSR = 0;
    TWBR = 12;  // 400 kHz
    TWCR = _BV(TWEN);

    TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWEN);
    uint8_t right_after = (TWCR >> TWINT) & 1;
    wait_twint();
    twi_stop();
    Serial.print("I ");
    Serial.println(right_after);

    uint8_t status[7], data[2];
    read_who_am_i(status, data);
    Serial.print('S');
    for (uint8_t i = 0; i < 7; i++) { Serial.print(' '); hex(status[i]); }
    Serial.println();
    Serial.print("W ");
    hex(data[0]);
    Serial.print(' ');
    hex(data[1]);
    Serial.println();

    uint8_t nack[3];
    twi_start();
    nack[0] = twi_send(0x50 << 1);
    nack[1] = twi_send(0x00);
    twi_start();
    nack[2] = twi_send((0x50 << 1) | 1);
    twi_stop();
    Serial.print('N');
    for (uint8_t i = 0; i < 3; i++) { Serial.print(' '); hex(nack[i]); }
    Serial.println();

    timed_read(72, 0);  // 100 kHz
    timed_read(12, 0);  // 400 kHz
    timed_read(18, 1);  // 16 + 2 * 18 * 4 = 160 cycles: 100 kHz through the prescaler
    Serial.println('E');
}

void loop() {}
