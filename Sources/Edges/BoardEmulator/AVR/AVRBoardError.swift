import SystemPackage

/// Why the AVR board could not start or continue. Each case renders as one
/// line that names the fix.
public enum AVRBoardError: Error, Equatable, CustomStringConvertible {
    /// The firmware file cannot be opened (`errno` ENOENT: nothing there).
    case cannotOpenFirmware(path: String, errno: Errno)
    /// The file is neither an ELF nor Intel HEX.
    case notFirmware(path: String)
    /// simavr's ELF reader refused the file; `reason` is simavr's own words.
    case elfRefused(path: String, reason: String)
    /// The ELF's structure does not hold (`ELFStructure`: an offset past the
    /// end of the file, a bad index or link); `reason` says where.
    case damagedELF(path: String, reason: String)
    /// The file starts like Intel HEX but is not text.
    case hexNotText(path: String)
    /// An Intel HEX line is damaged (`IntelHex.ParseError` names it).
    case badHex(path: String, IntelHex.ParseError)
    /// The image was linked for another chip than the core's (`AVRChip.linkedFor`).
    case builtForAnotherChip(path: String, linkedFor: AVRChip, core: AVRChip)
    /// simavr refused the flash image (too big for the MCU, ...); `reason` is its words.
    case imageRefused(path: String, reason: String)
    /// No memory for the simulated parts.
    case outOfMemory(path: String)
    /// `Configuration.serialPort` names a UART the chip does not have.
    case noSuchSerialPort(Int, mcu: String)
    /// The board's end of the cable (as the native board's).
    case link(BoardLinkError)

    /// The firmware file is at fault (missing, not firmware, damaged, too big),
    /// rather than the system.
    public var isFirmwareProblem: Bool {
        switch self {
        case .cannotOpenFirmware, .notFirmware, .elfRefused, .damagedELF, .hexNotText, .badHex, .builtForAnotherChip, .imageRefused: true
        case .outOfMemory, .noSuchSerialPort, .link: false
        }
    }

    /// One line for people: what went wrong and the fix.
    public var description: String {
        switch self {
        case .cannotOpenFirmware(let path, let errno):
            "cannot open firmware \(path): \(errno == .noSuchFileOrDirectory ? "no such file" : errno.description)"
        case .notFirmware(let path):
            "\(path) is not an ELF file nor Intel HEX; pass the .elf or .hex that avr-gcc or the Arduino IDE built"
        case .elfRefused(_, let reason):
            reason
        case .damagedELF(let path, let reason):
            "\(path) is a damaged ELF file (\(reason)); build it again with avr-gcc or the Arduino IDE"
        case .hexNotText(let path):
            "\(path): cannot read it as text; give the .hex or .elf the compiler wrote"
        case .badHex(let path, let error):
            "\(path) is not a valid Intel HEX file (\(error.description))"
        case .builtForAnotherChip(let path, let chip, let core):
            "\(path) is built for an \(chip.name) (\(Self.boardTitles(chip))), not an \(core.name): run it with \(Self.boardOptions(chip))"
        case .imageRefused(let path, let reason):
            "\(path): \(reason)"
        case .outOfMemory(let path):
            "\(path): out of memory"
        case .noSuchSerialPort(let port, let mcu):
            "the \(AVRChip(mcu: mcu)?.name ?? mcu) has no Serial\(port); Serial1 to Serial3 are the Mega's"
        case .link(let error):
            error.description
        }
    }

    /// "Arduino Uno, Arduino Nano".
    static func boardTitles(_ chip: AVRChip) -> String {
        chip.boards.map(\.title).joined(separator: ", ")
    }

    /// "--board uno (or nano)".
    static func boardOptions(_ chip: AVRChip) -> String {
        let names = chip.boards.map(\.rawValue)
        return "--board \(names[0])" + (names.count > 1 ? " (or \(names.dropFirst().joined(separator: ", ")))" : "")
    }
}
