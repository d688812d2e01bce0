// pwm_led: a fixture sketch for `tiltsim wokwi`'s expect-pin on a PWM pin.
// D13 is set high with digitalWrite, D9 dimmed with analogWrite (Timer1's
// PWM, a quarter duty); then "pwm on".
void setup() {
    Serial.begin(115200);
    pinMode(13, OUTPUT);
    digitalWrite(13, HIGH);
    analogWrite(9, 64);
    Serial.println(F("pwm on"));
}

void loop() {}
