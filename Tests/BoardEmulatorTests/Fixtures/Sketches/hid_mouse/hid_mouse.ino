// hid_mouse: what a Leonardo "air mouse" sends, through the core's own HID
// library as the Mouse library does (report 1: buttons, x, y, wheel), every
// 10 ms with the time each send took. A host that never reads the HID
// endpoint makes each send wait out the core's 250 ms timeout. First a burst
// of 10 reports back to back (x = 0…9), as Keyboard.print sends its keys:
// two fill the endpoint's banks, each later one waits for the host's next
// poll (once a millisecond), so about 8 ms on a board.
#include <HID.h>

static const uint8_t mouseReport[] PROGMEM = {
    0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x09, 0x01, 0xa1, 0x00, 0x85, 0x01,  // mouse, report 1
    0x05, 0x09, 0x19, 0x01, 0x29, 0x03, 0x15, 0x00, 0x25, 0x01, 0x95, 0x03,  // three buttons
    0x75, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x05, 0x81, 0x03,
    0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x09, 0x38, 0x15, 0x81, 0x25, 0x7f,  // x, y, wheel
    0x75, 0x08, 0x95, 0x03, 0x81, 0x06, 0xc0, 0xc0,
};

void setup() {
    static HIDSubDescriptor node(mouseReport, sizeof mouseReport);
    HID().AppendDescriptor(&node);
    Serial.begin(115200);
    while (!Serial) {}
    Serial.println(F("hid_mouse ready"));
    unsigned long start = micros();
    for (uint8_t i = 0; i < 10; i++) {
        uint8_t report[4] = { 0, i, 0, 0 };
        HID().SendReport(1, report, sizeof report);
    }
    unsigned long took = micros() - start;
    Serial.print(F("burst of 10 sent in "));
    Serial.print(took);
    Serial.println(F(" us"));
}

void loop() {
    static uint8_t count;
    uint8_t report[4] = { 0, (uint8_t)(count % 5), (uint8_t)-2, 0 };
    unsigned long start = millis();
    int sent = HID().SendReport(1, report, sizeof report);
    unsigned long took = millis() - start;
    Serial.print(F("report "));
    Serial.print(++count);
    Serial.print(sent > 0 ? F(" sent in ") : F(" FAILED after "));
    Serial.print(took);
    Serial.println(F(" ms"));
    delay(10);
}
