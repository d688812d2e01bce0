// timer_slopes: a fixture sketch for the timers' dual-slope modes (phase
// correct, phase and frequency correct PWM), which count up to TOP and back
// down: an overflow every 2·TOP ticks. For each set-up it counts overflow
// interrupts over one second of millis() (Timer0, fast PWM, untouched) and
// prints "NAME count":
//   t1m8   Timer1 mode 8, ICR1 = 8000, clk/1 (TimerOne's initialize(1000)): 1000
//   t1m10  Timer1 mode 10, ICR1 = 8000, clk/1: 1000
//   t1m1   Timer1 mode 1 (8-bit, as init() leaves it), clk/64: 490.2
//   t2m1   Timer2 mode 1 (as init() leaves it), clk/64: 490.2
//   t2m5   Timer2 mode 5, OCR2A = 124, clk/64: 1008.1
//   t1m14  Timer1 mode 14 (fast PWM, one slope), ICR1 = 15999, clk/1: 1000
static volatile uint16_t overflows;
ISR(TIMER1_OVF_vect) { overflows++; }
ISR(TIMER2_OVF_vect) { overflows++; }

static void count(const char *name) {
    overflows = 0;
    uint32_t start = millis();
    while (millis() - start < 1000) {}
    noInterrupts();
    uint16_t n = overflows;
    interrupts();
    TIMSK1 = 0;
    TIMSK2 = 0;
    Serial.print(name);
    Serial.print(' ');
    Serial.println(n);
}

void setup() {
    Serial.begin(115200);
    TCCR1A = 0; TCCR1B = _BV(WGM13); ICR1 = 8000; TCCR1B = _BV(WGM13) | _BV(CS10); TIMSK1 = _BV(TOIE1);
    count("t1m8");
    TCCR1B = 0; TCCR1A = _BV(WGM11); ICR1 = 8000; TCCR1B = _BV(WGM13) | _BV(CS10); TIMSK1 = _BV(TOIE1);
    count("t1m10");
    TCCR1B = 0; TCCR1A = _BV(WGM10); TCCR1B = _BV(CS11) | _BV(CS10); TIMSK1 = _BV(TOIE1);
    count("t1m1");
    TIMSK2 = _BV(TOIE2);  // Timer2 as init() leaves it: mode 1, clk/64
    count("t2m1");
    TCCR2B = 0; TCCR2A = _BV(WGM20); OCR2A = 124; TCCR2B = _BV(WGM22) | _BV(CS22); TIMSK2 = _BV(TOIE2);
    count("t2m5");
    TCCR1B = 0; TCCR1A = _BV(WGM11); ICR1 = 15999; TCCR1B = _BV(WGM13) | _BV(WGM12) | _BV(CS10); TIMSK1 = _BV(TOIE1);
    count("t1m14");
    Serial.println(F("done"));
}

void loop() {}
