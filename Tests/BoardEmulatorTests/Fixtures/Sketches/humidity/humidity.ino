// humidity: a DHT22 on D2 read bit by bit as DHTlib-style sketches do it
// (no pull-up of its own: the module's holds the line). Written for the
// BoardEmulator tests (TiltsimWokwiTests); 115200 baud:
//   "short=<0|1>"                    once: an answer to a 300 µs start signal (too short: 0)
//   "t=<°C> h=<%> sum=<ok|bad>"      every 100 ms, or "error=<step>" when the line stays still
#include <Arduino.h>

// Waits while the line reads `level`; false after about 200 µs.
static bool waitWhile(int level) {
    unsigned long start = micros();
    while (digitalRead(2) == level) {
        if (micros() - start > 200) return false;
    }
    return true;
}

static void start(unsigned int lowMicros) {
    pinMode(2, OUTPUT);
    digitalWrite(2, LOW);
    delayMicroseconds(lowMicros);
    digitalWrite(2, HIGH);
    pinMode(2, INPUT);
}

static int readSensor(uint8_t data[5]) {
    start(1000);
    // Interrupts stay on (timer 0's takes 6 µs, far from the 40 µs a bit is
    // judged by): with them off for the 4 ms answer micros() loses overflows.
    if (!waitWhile(HIGH)) return 1;  // the answer's 80 µs low
    if (!waitWhile(LOW)) return 2;
    if (!waitWhile(HIGH)) return 3;
    for (int bit = 0; bit < 40; bit++) {
        if (!waitWhile(LOW)) return 4;
        unsigned long rose = micros();
        if (!waitWhile(HIGH)) return 5;
        data[bit / 8] = (uint8_t)(data[bit / 8] << 1 | (micros() - rose > 40 ? 1 : 0));
    }
    return 0;
}

void setup() {
    Serial.begin(115200);
    start(300);
    Serial.print("short=");
    Serial.println(waitWhile(HIGH) ? 1 : 0);
}

void loop() {
    delay(100);
    uint8_t data[5] = {0, 0, 0, 0, 0};
    int error = readSensor(data);
    if (error) {
        Serial.print("error=");
        Serial.println(error);
        return;
    }
    float humidity = ((data[0] << 8) | data[1]) / 10.0;
    int raw = ((data[2] & 0x7F) << 8) | data[3];
    float celsius = (data[2] & 0x80 ? -raw : raw) / 10.0;
    uint8_t sum = data[0] + data[1] + data[2] + data[3];
    Serial.print("t=");
    Serial.print(celsius, 1);
    Serial.print(" h=");
    Serial.print(humidity, 1);
    Serial.print(" sum=");
    Serial.println(sum == data[4] ? "ok" : "bad");
}
