#include "TiltGreeting.h"
#include "utility/greeting_number.h"

void TiltGreeting::greet() {
    out.print(F("hello from TiltGreeting "));
    out.println(greeting_number());
}
