import ArgumentParser
import BoardEmulator

/// `--board`: the Arduino board a firmware or sketch was built for (Hardware/boards.mk's names).
/// A group of its own, so `tiltsim` and `tiltsim run` each parse it (a plain option
/// of the same name in both would go to the parent only).
struct BoardOption: ParsableArguments {
    /// The boards of Hardware/boards.mk (`ArduinoBoard`'s, as an option's values).
    enum Board: String, ExpressibleByArgument, CaseIterable {
        case uno, nano, mega, leonardo, micro
    }

    @Option(help: ArgumentHelp("The Arduino board the firmware was built for: uno (default), nano, mega, leonardo or micro. Its chip runs it, pins go by its header's names, and a leonardo's or micro's serial port is the chip's own USB, enumerated by an emulated host. tiltsim without --firmware runs our firmware's build for it (Hardware/build/BOARD/tiltserial.elf, by make -C Hardware BOARD=…). avr only.", valueName: "board"))
    var board: Board?

    /// The board chosen, the Uno by default.
    var arduino: ArduinoBoard { ArduinoBoard(rawValue: (board ?? .uno).rawValue)! }
}
