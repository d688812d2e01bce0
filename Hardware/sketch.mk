# Builds any one-folder Arduino sketch with the Arduino core, the Wire and HID
# libraries, with the flags Hardware/Makefile uses for tiltserial (so what runs
# in simavr is what the Arduino IDE would flash). Used by the tests to build
# their fixture sketches for `tiltsim run`:
#   make -f Hardware/sketch.mk SKETCH_DIR=path/to/echo OUT=/tmp/build [CORE_OUT=/tmp/core]
# gives OUT/echo.elf and OUT/echo.hex (avr-objcopy -O ihex, as the IDE exports).
# CORE_OUT lets several sketches share one build of the core (`override`: a CORE_OUT given on
# the command line still gets the board suffix, so boards never share objects). BOARD=nano|mega|leonardo|micro
# builds for another board (boards.mk; the core then goes to CORE_OUT-BOARD).

include $(dir $(lastword $(MAKEFILE_LIST)))boards.mk
CORE_DIR    := $(ARDUINO_AVR)/cores/arduino
WIRE_DIR    := $(ARDUINO_AVR)/libraries/Wire/src
HID_DIR     := $(ARDUINO_AVR)/libraries/HID/src

ifndef SKETCH_DIR
$(error give SKETCH_DIR=folder holding NAME/NAME.ino)
endif
ifndef OUT
$(error give OUT=build folder)
endif
NAME     := $(notdir $(patsubst %/,%,$(SKETCH_DIR)))
CORE_OUT ?= $(OUT)/core
override CORE_OUT := $(CORE_OUT)$(if $(filter-out uno,$(BOARD)),-$(BOARD))

COMMON    := $(MCU_FLAGS) -Os -flto -ffunction-sections -fdata-sections \
             -I$(CORE_DIR) -I$(VARIANT_DIR) -I$(WIRE_DIR) -I$(WIRE_DIR)/utility -I$(HID_DIR)
CFLAGS    := $(COMMON) -std=gnu11 -fno-fat-lto-objects
CXXFLAGS  := $(COMMON) -std=gnu++11 -fpermissive -fno-exceptions -fno-threadsafe-statics \
             -DDECIMAL_DIG=__DECIMAL_DIG__ -fno-fat-lto-objects
ASFLAGS   := $(MCU_FLAGS) -x assembler-with-cpp -flto -I$(CORE_DIR) -I$(VARIANT_DIR)
LDFLAGS   := $(MCU_FLAGS) -Os -flto -fuse-linker-plugin -Wl,--gc-sections

CORE_SRCS := $(wildcard $(CORE_DIR)/*.c $(CORE_DIR)/*.cpp $(CORE_DIR)/*.S)
CORE_OBJS := $(patsubst $(CORE_DIR)/%,$(CORE_OUT)/%.o,$(CORE_SRCS)) $(CORE_OUT)/Wire.o $(CORE_OUT)/twi.o $(CORE_OUT)/HID.o
APP_OBJS  := $(OUT)/$(NAME).ino.o $(patsubst $(SKETCH_DIR)/%.cpp,$(OUT)/%.o,$(wildcard $(SKETCH_DIR)/*.cpp))

.PHONY: all
all: $(OUT)/$(NAME).hex

$(OUT)/$(NAME).ino.o: $(SKETCH_DIR)/$(NAME).ino
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -Wall -x c++ -include Arduino.h -c $< -o $@

$(OUT)/%.o: $(SKETCH_DIR)/%.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -Wall -c $< -o $@

$(CORE_OUT)/%.c.o: $(CORE_DIR)/%.c
	@mkdir -p $(@D)
	avr-gcc $(CFLAGS) -c $< -o $@
$(CORE_OUT)/%.cpp.o: $(CORE_DIR)/%.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -c $< -o $@
$(CORE_OUT)/%.S.o: $(CORE_DIR)/%.S
	@mkdir -p $(@D)
	avr-gcc $(ASFLAGS) -c $< -o $@
$(CORE_OUT)/Wire.o: $(WIRE_DIR)/Wire.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -c $< -o $@
$(CORE_OUT)/HID.o: $(HID_DIR)/HID.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -c $< -o $@
$(CORE_OUT)/twi.o: $(WIRE_DIR)/utility/twi.c
	@mkdir -p $(@D)
	avr-gcc $(CFLAGS) -c $< -o $@

# Archived, so the linker pulls only the objects (and ISRs) a sketch uses.
$(CORE_OUT)/core.a: $(CORE_OBJS)
	@rm -f $@
	avr-gcc-ar rcs $@ $^

$(OUT)/$(NAME).elf: $(APP_OBJS) $(CORE_OUT)/core.a
	avr-gcc $(LDFLAGS) -o $@ $(APP_OBJS) $(CORE_OUT)/core.a -lm

$(OUT)/$(NAME).hex: $(OUT)/$(NAME).elf
	avr-objcopy -O ihex -R .eeprom $< $@
