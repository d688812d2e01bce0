// stopping: sends one byte, then sleeps with interrupts off, so simavr halts
// (cpu_Done). AVRBoardLifecycleTests: a board whose firmware stops.
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

int main(void) {
    UCSR0A = _BV(U2X0);
    UBRR0 = 16;  // 16 MHz / (8 * (16 + 1)) = 117647 baud: 115200, as its host reads
    UCSR0B = _BV(TXEN0);
    UDR0 = 'X';
    while (!(UCSR0A & _BV(TXC0))) {}
    cli();
    sleep_enable();
    sleep_cpu();
    return 0;
}
