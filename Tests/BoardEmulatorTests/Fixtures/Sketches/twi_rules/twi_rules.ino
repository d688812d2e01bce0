// twi_rules: the ATmega328P's TWI master rules (the datasheet's master
// transmitter and receiver status tables) as two drivers of our own see them: one that polls
// TWINT and one driven by the TWI interrupt. Each runs the same scripts and
// prints what it saw, 115200 baud, one line a script:
//   "<P|I><script> <status> ... / <data> ..."  every TWSR status, then the bytes read
//   "P<rule> ..."                              register-level rules (polling only), below
//   "E"                                        done
// A step that never finishes prints status "ee" (a hang on the board) and
// moves on, so one broken rule does not hide the others.
//
// Scripts (the MPU-6050 answers at 0x68; nobody answers at 0x20):
//   A  write then read with a repeated START: 08 18 28 10 40 50 58 / 68 <reg 0x76>
//   B  nobody there: SLA+W NACK, a data byte after it, repeated START, SLA+R NACK: 08 20 30 10 48
//   C  STOP, and the next START written at once, while the STOP is still on
//      the bus: the TWI waits for the free bus, then sends it: 08 18 28 08 40 58 / 68
//   D  TWSTA and TWSTO together: STOP, then START (0x08, not 0x10): 08 18 28 08 40 58 / 68
//   F  NACK on the first byte read: 08 40 58
// Register rules (polling):
//   "PS <twint> <twsr> <twsto>"  after a STOP: no TWINT, TWSR 0xF8, TWSTO cleared by itself
//   "PW <twwc> <read> <twwc>"    TWDR written while a byte is on the bus: TWWC set and the
//                                byte sent unchanged (the register read back is WHO_AM_I); a
//                                write while TWINT is set clears TWWC
//   "PX <status>"                TWEN cleared mid-transfer ends it: the next START is 08, not 10
#include <Arduino.h>
#include <avr/interrupt.h>

enum : uint8_t { END = 0, START = 1, STOP = 2, STOP_START = 3, WRITE = 4, READ_ACK = 5, READ_NACK = 6 };
static const uint8_t HANG = 0xEE;
static const uint8_t MPU_W = 0x68 << 1, MPU_R = (0x68 << 1) | 1, NOBODY_W = 0x20 << 1, NOBODY_R = (0x20 << 1) | 1;

static const uint8_t script_a[] = {START, WRITE, MPU_W, WRITE, 0x75, START, WRITE, MPU_R, READ_ACK, READ_NACK, STOP, END};
static const uint8_t script_b[] = {START, WRITE, NOBODY_W, WRITE, 0x00, START, WRITE, NOBODY_R, STOP, END};
static const uint8_t script_c[] = {START, WRITE, MPU_W, WRITE, 0x75, STOP, START, WRITE, MPU_R, READ_NACK, STOP, END};
static const uint8_t script_d[] = {START, WRITE, MPU_W, WRITE, 0x75, STOP_START, WRITE, MPU_R, READ_NACK, STOP, END};
static const uint8_t script_f[] = {START, WRITE, MPU_R, READ_NACK, STOP, END};

struct Result {
    uint8_t status[12], data[4];
    uint8_t statuses, reads;
};

static void hex(uint8_t v) {
    if (v < 16) Serial.print('0');
    Serial.print(v, HEX);
}

static void print_result(char driver, char script, const Result &r) {
    Serial.print(driver);
    Serial.print(script);
    for (uint8_t i = 0; i < r.statuses; i++) { Serial.print(' '); hex(r.status[i]); }
    if (r.reads) {
        Serial.print(" /");
        for (uint8_t i = 0; i < r.reads; i++) { Serial.print(' '); hex(r.data[i]); }
    }
    Serial.println();
}

// ---- The polling driver.

/// TWSR's status once TWINT is set, or HANG after about 20 ms.
static uint8_t wait_twint(void) {
    for (uint16_t n = 0; n < 20000; n++) {
        if (TWCR & _BV(TWINT)) return TWSR & 0xF8;
        delayMicroseconds(1);
    }
    return HANG;
}

static void wait_stop_done(void) {
    for (uint16_t n = 0; n < 20000 && (TWCR & _BV(TWSTO)); n++) delayMicroseconds(1);
}

static void run_polling(const uint8_t *op, Result &r) {
    r.statuses = r.reads = 0;
    for (; *op != END; op++) {
        switch (*op) {
        case START: TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWEN); break;
        case STOP_START: TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWSTO) | _BV(TWEN); break;
        case WRITE: TWDR = *++op; TWCR = _BV(TWINT) | _BV(TWEN); break;
        case READ_ACK: TWCR = _BV(TWINT) | _BV(TWEA) | _BV(TWEN); break;
        case READ_NACK: TWCR = _BV(TWINT) | _BV(TWEN); break;
        case STOP:
            TWCR = _BV(TWINT) | _BV(TWSTO) | _BV(TWEN);
            // Script C writes its next START at once; the others wait for the free bus.
            if (op[1] != START) wait_stop_done();
            continue;
        }
        uint8_t status = wait_twint();
        r.status[r.statuses++] = status;
        if ((*op == READ_ACK || *op == READ_NACK) && status != HANG) r.data[r.reads++] = TWDR;
        if (status == HANG) return;
    }
}

// ---- The interrupt-driven driver: the ISR takes each status and starts the next step.

static const uint8_t *volatile isr_op;
static Result *volatile isr_result;
static volatile bool isr_done;

/// Starts the step at isr_op (after a STOP, the next one at once); false at the end.
static bool isr_begin_step(void) {
    for (;;) {
        const uint8_t *op = isr_op;
        const uint8_t on = _BV(TWINT) | _BV(TWEN) | _BV(TWIE);
        switch (*op) {
        case END: TWCR = _BV(TWEN); return false;
        case START: TWCR = on | _BV(TWSTA); isr_op = op + 1; return true;
        case STOP_START: TWCR = on | _BV(TWSTA) | _BV(TWSTO); isr_op = op + 1; return true;
        case WRITE: TWDR = op[1]; TWCR = on; isr_op = op + 2; return true;
        case READ_ACK: TWCR = on | _BV(TWEA); isr_op = op + 1; return true;
        case READ_NACK: TWCR = on; isr_op = op + 1; return true;
        case STOP:
            // No interrupt follows a STOP: go straight on (Wire's next transfer
            // can likewise ask for its START before the STOP has left the bus).
            TWCR = on | _BV(TWSTO);
            isr_op = op + 1;
            continue;
        }
    }
}

ISR(TWI_vect) {
    Result &r = *isr_result;
    uint8_t status = TWSR & 0xF8;
    const uint8_t *previous = isr_op - 1;
    r.status[r.statuses++] = status;
    if (*previous == READ_ACK || *previous == READ_NACK) r.data[r.reads++] = TWDR;
    if (!isr_begin_step()) isr_done = true;
}

static void run_interrupt(const uint8_t *op, Result &r) {
    r.statuses = r.reads = 0;
    isr_result = &r;
    isr_done = false;
    isr_op = op;
    noInterrupts();
    bool started = isr_begin_step();
    interrupts();
    if (!started) return;
    for (uint16_t n = 0; n < 20000 && !isr_done; n++) delayMicroseconds(5);
    if (!isr_done) {
        TWCR = _BV(TWEN);  // TWIE off: the script hung
        r.status[r.statuses++] = HANG;
    }
    wait_stop_done();
}

// ---- Register rules.

static void after_stop(void) {
    Result r;
    static const uint8_t script[] = {START, WRITE, MPU_W, END};
    run_polling(script, r);
    TWCR = _BV(TWINT) | _BV(TWSTO) | _BV(TWEN);
    wait_stop_done();
    delayMicroseconds(50);
    Serial.print("PS ");
    Serial.print((TWCR >> TWINT) & 1);
    Serial.print(' ');
    hex(TWSR & 0xF8);
    Serial.print(' ');
    Serial.println((TWCR >> TWSTO) & 1);
}

static void write_collision(void) {
    Result r;
    static const uint8_t start[] = {START, WRITE, MPU_W, END};
    run_polling(start, r);
    TWDR = 0x75;  // WHO_AM_I
    TWCR = _BV(TWINT) | _BV(TWEN);
    TWDR = 0x6B;  // PWR_MGMT_1: too late, the byte is on the bus
    uint8_t collided = (TWCR >> TWWC) & 1;
    wait_twint();
    static const uint8_t read[] = {START, WRITE, MPU_R, READ_NACK, STOP, END};
    run_polling(read, r);
    Serial.print("PW ");
    Serial.print(collided);
    Serial.print(' ');
    hex(r.reads ? r.data[0] : HANG);
    Serial.print(' ');
    Serial.println((TWCR >> TWWC) & 1);
}

static void disable_mid_transfer(void) {
    Result r;
    static const uint8_t start[] = {START, WRITE, MPU_W, END};
    run_polling(start, r);
    TWCR = 0;  // TWEN off: the transfer ends, the bus is released
    TWCR = _BV(TWEN);
    static const uint8_t again[] = {START, STOP, END};
    run_polling(again, r);
    Serial.print("PX ");
    hex(r.statuses ? r.status[0] : HANG);
    Serial.println();
}

void setup() {
    Serial.begin(115200);
    TWSR = 0;
    TWBR = 12;  // 400 kHz
    TWCR = _BV(TWEN);
    Result r;
    const uint8_t *scripts[] = {script_a, script_b, script_c, script_d, script_f};
    const char names[] = {'A', 'B', 'C', 'D', 'F'};
    for (uint8_t i = 0; i < 5; i++) {
        run_polling(scripts[i], r);
        wait_stop_done();
        print_result('P', names[i], r);
    }
    for (uint8_t i = 0; i < 5; i++) {
        run_interrupt(scripts[i], r);
        print_result('I', names[i], r);
    }
    after_stop();
    write_collision();
    disable_mid_transfer();
    Serial.println('E');
}

void loop() {}
