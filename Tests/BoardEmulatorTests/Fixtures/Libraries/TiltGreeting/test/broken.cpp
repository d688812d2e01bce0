#error "sketch.mk built a library's test/ folder"
