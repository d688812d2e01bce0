/* Host side of `make render-bench`: runs an AVR program in simavr until it stops
 * and prints the cycles per frame (the program renders 10 frames). simavr counts
 * instruction cycles exactly, so this is the ATmega328P's cost at 16 MHz. */
#include <stdio.h>
#include <string.h>

#include <sim_avr.h>
#include <sim_elf.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: cycles PROGRAM.elf LABEL\n"); return 2; }
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) { fprintf(stderr, "cycles: cannot read %s\n", argv[1]); return 2; }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = 16000000;
    avr_t *avr = avr_make_mcu_by_name(fw.mmcu);
    avr_init(avr);
    avr_load_firmware(avr, &fw);
    int state;
    do { state = avr_run(avr); } while (state != cpu_Done && state != cpu_Crashed && avr->cycle < 100000000ULL);
    unsigned long long per_frame = (unsigned long long)avr->cycle / 10;
    printf("%-40s %7llu cycles = %5.2f ms per frame at 16 MHz\n", argv[2], per_frame, per_frame / 16000.0);
    return state == cpu_Done ? 0 : 1;
}
