// A second tab: merged after ino_tabs.ino, called from its setup().
void report(const char *what, long value) {
    Serial.print(what);
    Serial.print(' ');
    Serial.println(value);
}
