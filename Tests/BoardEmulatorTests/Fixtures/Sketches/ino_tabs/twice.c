/* A C file in the sketch folder: built with avr-gcc, linked as C. */
int c_twice(int x) { return 2 * x; }
