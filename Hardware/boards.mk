# The boards the sketch (and any fixture sketch, sketch.mk) builds for, as the
# Arduino IDE's boards.txt of the installed AVR core defines them:
#   BOARD=uno (default)  Uno, ATmega328P, Optiboot (32256 bytes of flash usable)
#   BOARD=nano           Nano, ATmega328P, the old bootloader's 30720 bytes
#   BOARD=mega           Mega 2560, ATmega2560
#   BOARD=leonardo       Leonardo and Pro Micro 5 V (ATmega32U4, native USB, Caterina)
#   BOARD=micro          Micro (ATmega32U4, native USB)
#   BOARD=promicro-8mhz  SparkFun Pro Micro 3.3 V (ATmega32U4 at 8 MHz; the Leonardo's pins)
#   BOARD=promini-8mhz   Pro Mini 3.3 V (ATmega328P at 8 MHz; the Nano's pins; 38400 baud: src/core/tilt_baud.h)
# Sets MCU, F_CPU, MCU_FLAGS, VARIANT_DIR, FLASH_SIZE and RAM_SIZE (what the chip and
# its bootloader leave), and BOARD_BUILD (where the build goes: build/ for the
# Uno, as always, build/BOARD for the others).
BOARD  ?= uno
BOARDS := uno nano mega leonardo micro promicro-8mhz promini-8mhz
ARDUINO_AVR ?= /usr/share/arduino/hardware/arduino/avr

usb_flags = -DUSB_VID=$(1) -DUSB_PID=$(2) '-DUSB_MANUFACTURER="Unknown"' '-DUSB_PRODUCT="$(3)"'

# One row a board: MCU, variant folder, board define, flash and RAM the chip
# and its bootloader leave (boards.txt's upload.maximum_size and _data_size),
# clock. The Pro Micro is SparkFun's board package's, not the core's: its
# pins are the Leonardo's variant's.
uno_BOARD      := atmega328p standard          ARDUINO_AVR_UNO       32256  2048 16000000
nano_BOARD     := atmega328p eightanaloginputs ARDUINO_AVR_NANO      30720  2048 16000000
mega_BOARD     := atmega2560 mega              ARDUINO_AVR_MEGA2560  253952 8192 16000000
leonardo_BOARD := atmega32u4 leonardo          ARDUINO_AVR_LEONARDO  28672  2560 16000000
micro_BOARD    := atmega32u4 micro             ARDUINO_AVR_MICRO     28672  2560 16000000
promicro-8mhz_BOARD := atmega32u4 leonardo     ARDUINO_AVR_PROMICRO  28672  2560 8000000
promini-8mhz_BOARD  := atmega328p eightanaloginputs ARDUINO_AVR_PRO  30720  2048 8000000
# The 32U4's own USB stack needs its ids and names, as the IDE passes them.
leonardo_USB   := $(call usb_flags,0x2341,0x8036,Arduino Leonardo)
micro_USB      := $(call usb_flags,0x2341,0x8037,Arduino Micro)
promicro-8mhz_USB := $(call usb_flags,0x1B4F,0x9204,SparkFun Pro Micro)

ROW := $($(BOARD)_BOARD)
ifeq ($(ROW),)
  $(error BOARD=$(BOARD) is not one of: $(BOARDS) (a 5 V Pro Micro builds as BOARD=leonardo, a 3.3 V one as BOARD=promicro-8mhz; a 5 V Pro Mini as BOARD=nano))
endif
MCU         := $(word 1,$(ROW))
VARIANT     := $(word 2,$(ROW))
BOARD_FLAGS := -D$(word 3,$(ROW)) $($(BOARD)_USB)
FLASH_SIZE  := $(word 4,$(ROW))
RAM_SIZE    := $(word 5,$(ROW))
F_CPU       := $(word 6,$(ROW))

MCU_FLAGS   := -mmcu=$(MCU) -DF_CPU=$(F_CPU)L -DARDUINO=10819 $(BOARD_FLAGS) -DARDUINO_ARCH_AVR
VARIANT_DIR := $(ARDUINO_AVR)/variants/$(VARIANT)
BOARD_BUILD := $(if $(filter uno,$(BOARD)),build,build/$(BOARD))
