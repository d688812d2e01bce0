import ArgumentParser
import SerialIO
import TiltCore

/// `tiltserial list`: the serial ports present, boards first.
struct List: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List serial ports with their USB ids, maker, product, serial number and by-id name.")

    func execute(_ context: CommandContext) throws(Failure) {
        let ports: [PortInfo]
        do { ports = try SerialPortLister.list() } catch { throw Failure(error) }
        let out = context.console
        let emulated = EmulatedLinks.running()
        defer {
            // A pty is no serial port to libserialport: tiltsim's boards are named apart.
            for link in emulated { out.writeOut("emulated board: \(link.path) (tiltsim, pid \(link.pid), \(link.pty))\n") }
        }
        if ports.isEmpty {
            out.writeOut("no serial ports found; plug the board in (a charge-only USB cable shows nothing)\n")
            return
        }
        let rows = ports.map { p -> [String] in
            let ids = p.usbVendorID.flatMap { v in p.usbProductID.map { HexText.digits(v) + ":" + HexText.digits($0) } } ?? "-"
            return [p.path, ids, p.manufacturer ?? "-", p.product ?? p.description ?? "-", p.serialNumber ?? "-", Self.board(p), p.byIdPath ?? "-"]
        }
        let header = ["PORT", "VID:PID", "MANUFACTURER", "PRODUCT", "SERIAL", "BOARD", "BY-ID"]
        let table = [header] + rows
        let widths = (0..<header.count).map { c in table.map { $0[c].count }.max() ?? 0 }
        for row in table {
            let line = row.enumerated().map { c, text in
                c == row.count - 1 ? text : text + String(repeating: " ", count: widths[c] - text.count)
            }.joined(separator: "  ")
            out.writeOut(line + "\n")
        }
    }

    /// The BOARD column: what the USB ids name (USBBoard's table: "Leonardo
    /// (native USB)", "Leonardo bootloader", "Uno", "CH340 USB-serial bridge"),
    /// "board?" for a board maker's id the table does not know, else "-".
    static func board(_ port: PortInfo) -> String {
        if let known = USBBoard.lookup(port) {
            return known.isNativeUSB ? known.name + " (native USB)" : known.name
        }
        return port.knownBoardVendor != nil ? "board?" : "-"
    }
}
