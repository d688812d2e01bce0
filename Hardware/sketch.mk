# Builds any one-folder Arduino sketch with the Arduino core and the libraries
# it ships (Wire, HID, SPI, SoftwareSerial, EEPROM), with the flags
# Hardware/Makefile uses for tiltserial (so what runs in simavr is what the
# Arduino IDE would flash). Used by the tests to build their fixture sketches
# for `tiltsim run`, and by makers without the IDE:
#   make -f Hardware/sketch.mk SKETCH_DIR=path/to/echo OUT=/tmp/build [CORE_OUT=/tmp/core]
#        [LIBS="~/Arduino/libraries/Adafruit_SSD1306 ~/Arduino/libraries/Adafruit_GFX_Library …"]
# gives OUT/echo.elf and OUT/echo.hex (avr-objcopy -O ihex, as the IDE exports).
# The folder is built as the IDE builds it: its .ino tabs (echo.ino first) merged into
# OUT/echo.ino.cpp with #include <Arduino.h>, #line directives and the function prototypes
# arduino-cli would add (tools/ino_sketch.py: Debian has no arduino-cli nor its ctags), then
# every .c, .cpp, .cc, .cxx and .S beside them and below its src/ compiled and linked too.
# LIBS: library folders as the IDE keeps them (each its src/ when it has one,
# else the folder; every .c/.cpp below it except in examples/, test*/ and hidden folders is built,
# and every folder below it is on the include path, as the IDE's recursive
# layout allows), archived into OUT/libraries.a.
# CORE_OUT lets several sketches share one build of the core (`override`: a CORE_OUT given on
# the command line still gets the board suffix, so boards never share objects). BOARD=nano|mega|leonardo|micro
# builds for another board (boards.mk; the core then goes to CORE_OUT-BOARD).

HARDWARE_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
include $(HARDWARE_DIR)boards.mk
INO_SKETCH  := $(HARDWARE_DIR)tools/ino_sketch.py
CORE_DIR    := $(ARDUINO_AVR)/cores/arduino
WIRE_DIR    := $(ARDUINO_AVR)/libraries/Wire/src
HID_DIR     := $(ARDUINO_AVR)/libraries/HID/src
SPI_DIR     := $(ARDUINO_AVR)/libraries/SPI/src
SWSERIAL_DIR := $(ARDUINO_AVR)/libraries/SoftwareSerial/src
EEPROM_DIR  := $(ARDUINO_AVR)/libraries/EEPROM/src

# The maker's libraries (LIBS), found as the IDE finds them.
LIB_ROOTS    := $(foreach d,$(LIBS),$(if $(wildcard $(d)/src),$(d)/src,$(d)))
$(foreach d,$(LIB_ROOTS),$(if $(wildcard $(d)),,$(error LIBS: no library folder $(d); give each library's folder, e.g. ~/Arduino/libraries/Adafruit_SSD1306)))
LIB_SKIP     := -type d \( -name examples -o -name 'test*' -o -name '.*' \) -prune -o
LIB_DIRS     := $(sort $(foreach r,$(LIB_ROOTS),$(shell find $(r) $(LIB_SKIP) -type d -print)))
LIB_SRCS     := $(foreach r,$(LIB_ROOTS),$(shell find $(r) $(LIB_SKIP) -type f \( -name '*.c' -o -name '*.cpp' \) -print | sort))
LIB_INCLUDES := $(addprefix -I,$(LIB_DIRS))
LIB_ARCHIVE  := $(if $(LIB_SRCS),$(OUT)/libraries.a)

ifndef SKETCH_DIR
$(error give SKETCH_DIR=folder holding NAME/NAME.ino)
endif
ifndef OUT
$(error give OUT=build folder)
endif
# make splits paths at spaces (a "My Sketches" folder came out as a circular
# dependency and "No rule to make target"): refuse one, naming it.
$(foreach v,SKETCH_DIR OUT CORE_OUT,$(if $(word 2,$($(v))),$(error $(v)=$($(v)): a path with a space in it, which make cannot build with; copy the folder to a path without spaces, or link one there (ln -s "$($(v))" /tmp/$(notdir $(lastword $($(v))))))))
override SKETCH_DIR := $(patsubst %/,%,$(SKETCH_DIR))
NAME     := $(notdir $(SKETCH_DIR))
CORE_OUT ?= $(OUT)/core
override CORE_OUT := $(CORE_OUT)$(if $(filter-out uno,$(BOARD)),-$(BOARD))

COMMON    := $(MCU_FLAGS) -Os -flto -ffunction-sections -fdata-sections \
             -I$(CORE_DIR) -I$(VARIANT_DIR) -I$(WIRE_DIR) -I$(WIRE_DIR)/utility -I$(HID_DIR) \
             -I$(SPI_DIR) -I$(SWSERIAL_DIR) -I$(EEPROM_DIR)
CFLAGS    := $(COMMON) -std=gnu11 -fno-fat-lto-objects
# -Wno-error=narrowing as the IDE's platform.txt: `char p[] = {0b11111111}` builds there.
CXXFLAGS  := $(COMMON) -std=gnu++11 -fpermissive -fno-exceptions -fno-threadsafe-statics \
             -Wno-error=narrowing -DDECIMAL_DIG=__DECIMAL_DIG__ -fno-fat-lto-objects
ASFLAGS   := $(MCU_FLAGS) -x assembler-with-cpp -flto -I$(CORE_DIR) -I$(VARIANT_DIR)
LDFLAGS   := $(MCU_FLAGS) -Os -flto -fuse-linker-plugin -Wl,--gc-sections

CORE_SRCS := $(wildcard $(CORE_DIR)/*.c $(CORE_DIR)/*.cpp $(CORE_DIR)/*.S)
CORE_OBJS := $(patsubst $(CORE_DIR)/%,$(CORE_OUT)/%.o,$(CORE_SRCS)) $(CORE_OUT)/Wire.o $(CORE_OUT)/twi.o $(CORE_OUT)/HID.o \
             $(CORE_OUT)/SPI.o $(CORE_OUT)/SoftwareSerial.o

# The sketch as the IDE builds it: its .ino tabs merged into OUT/NAME.ino.cpp with
# prototypes (tools/ino_sketch.py), and every .c, .cpp, .cc, .cxx and .S in the
# folder and anywhere below its src/ (hidden ones aside), objects under OUT/sketch/.
SKETCH_EXTS := c cpp cc cxx S
SKETCH_SRCS := $(foreach e,$(SKETCH_EXTS),$(wildcard $(SKETCH_DIR)/*.$(e))) \
               $(if $(wildcard $(SKETCH_DIR)/src),$(shell find $(SKETCH_DIR)/src -name '.*' -prune -o -type f \
                 \( -name '*.c' -o -name '*.cpp' -o -name '*.cc' -o -name '*.cxx' -o -name '*.S' \) -print | sort))
# make splits names at spaces ("c file.c" came out as "No rule to make target c.o"):
# such a source file, or a folder under src/ holding one, is named in one line instead.
SPACED_SRCS := $(shell cd '$(SKETCH_DIR)' && find . -maxdepth 1 -type f -name '* *' \( -name '*.c' -o -name '*.cpp' \
                 -o -name '*.cc' -o -name '*.cxx' -o -name '*.S' \) -printf '"%P" '; \
                 $(if $(wildcard $(SKETCH_DIR)/src),cd src && find . -name '* *' -printf '"src/%P" '))
$(if $(SPACED_SRCS),$(error $(SPACED_SRCS)in $(SKETCH_DIR): a name with a space in it, which make cannot build; rename it (the .ino tabs may have spaces)))
APP_OBJS    := $(OUT)/$(NAME).ino.o $(patsubst $(SKETCH_DIR)/%,$(OUT)/sketch/%.o,$(SKETCH_SRCS))
DEPFLAGS     = -MMD -MP  # headers a sketch file includes (OUT/…d); the core and libraries are not tracked

.PHONY: all FORCE
all: $(OUT)/$(NAME).hex

# -iquote: #include "tab.h" and "src/x.h" in a tab find the sketch folder's files, as in the IDE.
INO_CXX := avr-g++ $(CXXFLAGS) $(LIB_INCLUDES) -iquote $(SKETCH_DIR)

# Made every time (a tab added or deleted changes it too), with the flags it is
# compiled with (ino_sketch.py preprocesses before it looks for functions, as
# arduino-cli); rewritten only when its text changes, so nothing is recompiled for nothing.
$(OUT)/$(NAME).ino.cpp: FORCE
	@mkdir -p $(@D)
	python3 $(INO_SKETCH) $(SKETCH_DIR) $@ $(INO_CXX)
FORCE:

$(OUT)/$(NAME).ino.o: $(OUT)/$(NAME).ino.cpp
	$(INO_CXX) -Wall $(DEPFLAGS) -c $< -o $@

$(OUT)/sketch/%.c.o: $(SKETCH_DIR)/%.c
	@mkdir -p $(@D)
	avr-gcc $(CFLAGS) $(LIB_INCLUDES) -Wall $(DEPFLAGS) -c $< -o $@
$(OUT)/sketch/%.S.o: $(SKETCH_DIR)/%.S
	@mkdir -p $(@D)
	avr-gcc $(ASFLAGS) $(LIB_INCLUDES) $(DEPFLAGS) -c $< -o $@
$(OUT)/sketch/%.cpp.o: $(SKETCH_DIR)/%.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) $(LIB_INCLUDES) -Wall $(DEPFLAGS) -c $< -o $@
$(OUT)/sketch/%.cc.o: $(SKETCH_DIR)/%.cc
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) $(LIB_INCLUDES) -Wall $(DEPFLAGS) -c $< -o $@
$(OUT)/sketch/%.cxx.o: $(SKETCH_DIR)/%.cxx
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) $(LIB_INCLUDES) -Wall $(DEPFLAGS) -c $< -o $@

-include $(APP_OBJS:.o=.d)

# Every library source into one archive (numbered: two libraries may both have a util.cpp).
$(OUT)/libraries.a: $(LIB_SRCS)
	@rm -rf $(OUT)/libraries && mkdir -p $(OUT)/libraries
	set -e; i=0; for s in $(LIB_SRCS); do i=$$((i + 1)); o=$(OUT)/libraries/$$i-$$(basename $$s).o; \
	  case $$s in *.c) avr-gcc $(CFLAGS) $(LIB_INCLUDES) -c $$s -o $$o;; \
	              *) avr-g++ $(CXXFLAGS) $(LIB_INCLUDES) -c $$s -o $$o;; esac; done
	avr-gcc-ar rcs $@ $(OUT)/libraries/*.o

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
$(CORE_OUT)/SPI.o: $(SPI_DIR)/SPI.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -c $< -o $@
$(CORE_OUT)/SoftwareSerial.o: $(SWSERIAL_DIR)/SoftwareSerial.cpp
	@mkdir -p $(@D)
	avr-g++ $(CXXFLAGS) -c $< -o $@

# Archived, so the linker pulls only the objects (and ISRs) a sketch uses.
$(CORE_OUT)/core.a: $(CORE_OBJS)
	@rm -f $@
	avr-gcc-ar rcs $@ $^

$(OUT)/$(NAME).elf: $(APP_OBJS) $(LIB_ARCHIVE) $(CORE_OUT)/core.a
	avr-gcc $(LDFLAGS) -o $@ $(APP_OBJS) $(LIB_ARCHIVE) $(CORE_OUT)/core.a -lm

$(OUT)/$(NAME).hex: $(OUT)/$(NAME).elf
	avr-objcopy -O ihex -R .eeprom $< $@
