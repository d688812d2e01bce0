// jumper: a fixture sketch for wires between the board's own pins (a Wokwi
// diagram's uno:7 to uno:6, uno:3 to uno:2 through a breadboard strip, uno:8
// to uno:9 and uno:10). Prints "name=value" lines, then "done":
// - d6_high, d6_low: D6 (input) as D7 (output) drives it, 1 then 0;
// - d6_pulled: D7 an input with its pull-up, D6 an input without: 1;
// - int0_rising: 10 pulses on D3 seen by INT0 on D2 (RISING): 10;
// - d9_d10: D8 drives D9 and D10 low, then high: "00" then "11";
// - d11_d12_pressed: D11 and D12 inputs with pull-ups, wired together, a
//   button from D11 to GND held by the scenario: both read 0 ("00");
// then D4 high twice against D5 low (two shorts if they are wired), "shorts done".
static volatile uint8_t rises;
static void rose() { rises++; }

static void figure(const __FlashStringHelper *name, int value) {
    Serial.print(name);
    Serial.print('=');
    Serial.println(value);
}

void setup() {
    Serial.begin(115200);
    pinMode(7, OUTPUT);
    pinMode(6, INPUT);
    digitalWrite(7, HIGH);
    figure(F("d6_high"), digitalRead(6));
    digitalWrite(7, LOW);
    figure(F("d6_low"), digitalRead(6));
    pinMode(7, INPUT_PULLUP);
    figure(F("d6_pulled"), digitalRead(6));

    pinMode(3, OUTPUT);
    pinMode(2, INPUT);
    attachInterrupt(digitalPinToInterrupt(2), rose, RISING);
    for (uint8_t i = 0; i < 10; i++) {
        digitalWrite(3, HIGH);
        delayMicroseconds(20);
        digitalWrite(3, LOW);
        delayMicroseconds(20);
    }
    figure(F("int0_rising"), rises);

    pinMode(8, OUTPUT);
    digitalWrite(8, LOW);
    figure(F("d9_d10_low"), digitalRead(9) * 10 + digitalRead(10));
    digitalWrite(8, HIGH);
    figure(F("d9_d10_high"), digitalRead(9) * 10 + digitalRead(10));
    pinMode(11, INPUT_PULLUP);
    pinMode(12, INPUT_PULLUP);
    figure(F("d11_d12_released"), digitalRead(11) * 10 + digitalRead(12));
    Serial.println(F("press"));
    while (digitalRead(11) == HIGH) {}
    delay(5);
    figure(F("d11_d12_pressed"), digitalRead(11) * 10 + digitalRead(12));
    Serial.println(F("done"));
    // Two shorts when D4 is wired to D5: D4 high twice against D5 low.
    pinMode(4, OUTPUT);
    pinMode(5, OUTPUT);
    for (uint8_t i = 0; i < 2; i++) {
        digitalWrite(4, HIGH);
        delay(1);
        digitalWrite(4, LOW);
        delay(1);
    }
    Serial.println(F("shorts done"));
}

void loop() {}
