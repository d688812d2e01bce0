// pwm_led: a fixture sketch for `tiltsim wokwi`'s expect-pin on a PWM pin.
// D13 is set high with digitalWrite, D9 dimmed with analogWrite (Timer1's
// PWM, a quarter duty), D3 set high and then taken by Timer2's OC2B in
// normal mode, cleared on a match (as the Servo library leaves pin 10 with
// Timer1 after an analogWrite); then "pwm on".
void setup() {
    Serial.begin(115200);
    pinMode(13, OUTPUT);
    digitalWrite(13, HIGH);
    analogWrite(9, 64);
    pinMode(3, OUTPUT);
    digitalWrite(3, HIGH);
    TCCR2A = _BV(COM2B1);  // normal mode (WGM 0), OC2B cleared on compare match
    Serial.println(F("pwm on"));
}

void loop() {}
