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

ifeq ($(BOARD),uno)
  MCU := atmega328p
  VARIANT := standard
  BOARD_FLAGS := -DARDUINO_AVR_UNO
  FLASH_SIZE := 32256
  RAM_SIZE := 2048
else ifeq ($(BOARD),nano)
  MCU := atmega328p
  VARIANT := eightanaloginputs
  BOARD_FLAGS := -DARDUINO_AVR_NANO
  FLASH_SIZE := 30720
  RAM_SIZE := 2048
else ifeq ($(BOARD),mega)
  MCU := atmega2560
  VARIANT := mega
  BOARD_FLAGS := -DARDUINO_AVR_MEGA2560
  FLASH_SIZE := 253952
  RAM_SIZE := 8192
else ifeq ($(BOARD),leonardo)
  MCU := atmega32u4
  VARIANT := leonardo
  BOARD_FLAGS := -DARDUINO_AVR_LEONARDO $(call usb_flags,0x2341,0x8036,Arduino Leonardo)
  FLASH_SIZE := 28672
  RAM_SIZE := 2560
else ifeq ($(BOARD),micro)
  MCU := atmega32u4
  VARIANT := micro
  BOARD_FLAGS := -DARDUINO_AVR_MICRO $(call usb_flags,0x2341,0x8037,Arduino Micro)
  FLASH_SIZE := 28672
  RAM_SIZE := 2560
else
  $(error BOARD=$(BOARD) is not one of: $(BOARDS) (a Pro Micro builds as BOARD=leonardo))
endif

MCU_FLAGS   := -mmcu=$(MCU) -DF_CPU=16000000L -DARDUINO=10819 $(BOARD_FLAGS) -DARDUINO_ARCH_AVR
VARIANT_DIR := $(ARDUINO_AVR)/variants/$(VARIANT)
BOARD_BUILD := $(if $(filter uno,$(BOARD)),build,build/$(BOARD))
