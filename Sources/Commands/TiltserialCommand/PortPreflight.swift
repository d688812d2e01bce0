import SerialIO
import TiltCore

/// What the port's USB ids tell before it is opened (SerialIO's `USBBoard` table).
///
/// A native-USB board (ATmega32U4: Leonardo, Micro, Pro Micro) does not reset
/// when its port opens and sends nothing until DTR is asserted: every open
/// asserts DTR (the kernel raises it on open whatever `--dtr` says) and the
/// host sends HOST_HELLO at once, so it gets the HELLO it missed; this says so.
/// A 1200-baud open then close is the "touch" that drops such a board into its
/// bootloader, so `--baud 1200` is refused; so is the bootloader's own port,
/// which speaks AVR109 to an uploader, not our protocol.
enum PortPreflight {
    /// The line to say before a run on `path` (nil: nothing to say), or a
    /// failure for a port that must not be opened as asked. `info` reads the
    /// port's USB facts (tests fake it; a pty or an unknown name gives nil).
    static func check(path: String, baud: Int, info: (String) -> PortInfo? = usbInfo) throws(Failure) -> String? {
        guard let port = info(path), let board = USBBoard.lookup(port) else { return nil }
        let ids = HexText.digits(board.vendorID) + ":" + HexText.digits(board.productID)
        switch board.kind {
        case .resetsOnOpen:
            return nil
        case .bootloader(let of):
            let build = of == "Micro" ? "micro" : "leonardo"  // Hardware/boards.mk: the Pro Micro builds as a Leonardo
            throw Failure(.noValidFrames,
                "\(path): this is the \(of)'s bootloader (\(ids)), not the sketch: wait about 8 s for the sketch's port "
                + "to come back (`tiltserial list`); if it never does, no sketch is flashed: make -C Hardware BOARD=\(build) upload")
        case .nativeUSB:
            if baud == 1200 {
                throw Failure(.badSettings,
                    "--baud 1200: refused for the \(board.name) at \(path) (\(ids), native USB): opening at 1200 baud "
                    + "drops it into its bootloader; use the default 115200 (a native-USB board ignores the rate)")
            }
            return "\(path): \(board.name) (native USB): no reset on open; asked for HELLO"
        }
    }

    /// The port's listing facts without opening it: nil for a pty, a missing
    /// name or anything libserialport does not know.
    static func usbInfo(_ path: String) -> PortInfo? {
        guard let resolved = try? PortPath.resolve(path), !resolved.isPseudoTerminal else { return nil }
        return SerialPortLister.info(path: resolved.resolved)
    }
}
