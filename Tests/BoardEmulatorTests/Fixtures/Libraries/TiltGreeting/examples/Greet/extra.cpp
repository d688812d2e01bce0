// An example: the IDE never builds examples/ into a sketch that uses the library.
#error "sketch.mk built a library's examples/ folder"
