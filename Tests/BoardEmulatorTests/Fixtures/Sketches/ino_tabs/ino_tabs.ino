// ino_tabs: builds only if preprocessed as the Arduino IDE does
// (Hardware/tools/ino_sketch.py): setup() calls functions defined later, one
// in the report.ino tab, and code from a C file and an assembly file in src/.
// Prints "sum 62", "c 42", "asm 42", "max 42", "hook 1", "narrow 255",
// "ino_tabs done".
// Not a function: void fake() {
#include "src/add3.h"

extern "C" int c_twice(int x);  // twice.c

const char *decoy = "void fake() {";  // nor this
const char brace = '{';

// 255 narrowed into a char: the IDE builds it (-Wno-error=narrowing), as
// dot-matrix sketches' bit patterns need.
const char pattern[] = {0b11111111, 0x7E};

// Its prototypes go above this line: it takes report's address.
void (*const hook)(const char *what, long value) = &report;

// Inline methods get no prototype (this one's, at file scope, would not
// compile: a const free function returning a type only the class knows).
class Tally {
public:
    struct Step { int by; };
    Step next() const { return Step{2}; }
    long total = 0;
};

// A default argument gets no prototype in arduino-cli either (repeating
// "= 10" would not compile): it must come before its use.
static long scaled(long v, long factor = 10) { return v * factor; }

void setup() {
    Serial.begin(115200);
    Tally tally;
    tally.total = sum3(1, 2,
                       3);
    report("sum", scaled(tally.total) + tally.next().by);
    report("c", c_twice(21));
    report("asm", add3(39));
    report("max", biggest(7L, 42L));
    hook("hook", 1);
    report("narrow", (uint8_t)pattern[0]);
    Serial.println("ino_tabs done");
}

void loop() {}

// Its signature over three lines, its return type over two words.
unsigned long
sum3(int a,
     int b,  // the middle one
     int c) {
    return a + b + c;
}

template <typename T> T biggest(T a, T b) { return a > b ? a : b; }
