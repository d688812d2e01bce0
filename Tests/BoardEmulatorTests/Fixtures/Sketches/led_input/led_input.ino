// led_input: a fixture sketch for LEDs on input pins (tiltsim wokwi). D4 has
// an LED to GND, D5 an LED from 5V, both through resistors. Prints
// "pullup=" (D4 with its pull-up on), "off=" (D4 with it off again), "from5v="
// (D5, a plain input), then "done".
void setup() {
    Serial.begin(115200);
    pinMode(4, INPUT);
    digitalWrite(4, HIGH);  // the pull-up on: a red LED still clamps the pin low
    delay(10);
    Serial.print(F("pullup="));
    Serial.println(digitalRead(4));
    digitalWrite(4, LOW);  // and off
    delay(10);
    Serial.print(F("off="));
    Serial.println(digitalRead(4));
    pinMode(5, INPUT);
    Serial.print(F("from5v="));
    Serial.println(digitalRead(5));
    Serial.println(F("done"));
}

void loop() {}
