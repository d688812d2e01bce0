# The boards the sketch (and any fixture sketch, sketch.mk) builds for, as the
# Arduino IDE's boards.txt of the installed AVR core defines them:
#   BOARD=uno (default)  Uno, ATmega328P, Optiboot (32256 bytes of flash usable)
#   BOARD=nano           Nano, ATmega328P, the old bootloader's 30720 bytes
#   BOARD=mega           Mega 2560, ATmega2560
#   BOARD=leonardo       Leonardo and Pro Micro (ATmega32U4, native USB, Caterina)
#   BOARD=micro          Micro (ATmega32U4, native USB)
# Sets MCU, MCU_FLAGS, VARIANT_DIR, FLASH_SIZE and RAM_SIZE (what the chip and
# its bootloader leave), and BOARD_BUILD (where the build goes: build/ for the
# Uno, as always, build/BOARD for the others).
BOARD  ?= uno
BOARDS := uno nano mega leonardo micro
ARDUINO_AVR ?= /usr/share/arduino/hardware/arduino/avr

usb_flags = -DUSB_VID=$(1) -DUSB_PID=$(2) '-DUSB_MANUFACTURER="Unknown"' '-DUSB_PRODUCT="$(3)"'

# One row a board: MCU, variant folder, board define, flash and RAM the chip
# and its bootloader leave (boards.txt's upload.maximum_size and _data_size).
uno_BOARD      := atmega328p standard          ARDUINO_AVR_UNO       32256  2048
nano_BOARD     := atmega328p eightanaloginputs ARDUINO_AVR_NANO      30720  2048
mega_BOARD     := atmega2560 mega              ARDUINO_AVR_MEGA2560  253952 8192
leonardo_BOARD := atmega32u4 leonardo          ARDUINO_AVR_LEONARDO  28672  2560
micro_BOARD    := atmega32u4 micro             ARDUINO_AVR_MICRO     28672  2560
# The 32U4's own USB stack needs its ids and names, as the IDE passes them.
leonardo_USB   := $(call usb_flags,0x2341,0x8036,Arduino Leonardo)
micro_USB      := $(call usb_flags,0x2341,0x8037,Arduino Micro)

ROW := $($(BOARD)_BOARD)
ifeq ($(ROW),)
  $(error BOARD=$(BOARD) is not one of: $(BOARDS) (a Pro Micro builds as BOARD=leonardo))
endif
MCU         := $(word 1,$(ROW))
VARIANT     := $(word 2,$(ROW))
BOARD_FLAGS := -D$(word 3,$(ROW)) $($(BOARD)_USB)
FLASH_SIZE  := $(word 4,$(ROW))
RAM_SIZE    := $(word 5,$(ROW))

MCU_FLAGS   := -mmcu=$(MCU) -DF_CPU=16000000L -DARDUINO=10819 $(BOARD_FLAGS) -DARDUINO_ARCH_AVR
VARIANT_DIR := $(ARDUINO_AVR)/variants/$(VARIANT)
BOARD_BUILD := $(if $(filter uno,$(BOARD)),build,build/$(BOARD))
