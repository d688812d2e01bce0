// rx_idle: a fixture sketch that reads D0, the serial port's RX pin, before
// Serial.begin, its pull-up off. On an Uno, Nano or Mega the USB-serial
// bridge's TX drives it high through 1 kΩ while the line idles, so it reads
// HIGH. Prints "d0=N", then "done".
void setup() {
    pinMode(0, INPUT);
    uint8_t d0 = digitalRead(0);
    Serial.begin(115200);
    Serial.print(F("d0="));
    Serial.println(d0);
    Serial.println(F("done"));
}

void loop() {}
