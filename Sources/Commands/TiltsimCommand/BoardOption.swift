import ArgumentParser
import BoardEmulator

/// `--board`: the Arduino board a firmware or sketch was built for (Hardware/boards.mk's names).
/// A group of its own, so `tiltsim` and `tiltsim run` each parse it (a plain option
/// of the same name in both would go to the parent only).
struct BoardOption: ParsableArguments {
    @Option(help: ArgumentHelp("The Arduino board the firmware was built for: uno (default), nano, mega, leonardo, micro, promicro-8mhz (SparkFun's Pro Micro 3.3 V) or promini-8mhz (the Pro Mini 3.3 V). Its chip runs it at its clock, pins go by its header's names, and an ATmega32U4's serial port (leonardo, micro, promicro-8mhz) is the chip's own USB, enumerated by an emulated host. tiltsim without --firmware runs our firmware's build for it (Hardware/build/BOARD/tiltserial.elf, by make -C Hardware BOARD=...). avr only.", valueName: "board"))
    var board: ArduinoBoard?

    /// The board chosen, the Uno by default.
    var arduino: ArduinoBoard { board ?? .uno }
}

/// Hardware/boards.mk's names, as `--board`'s values.
extension ArduinoBoard: ExpressibleByArgument {}
