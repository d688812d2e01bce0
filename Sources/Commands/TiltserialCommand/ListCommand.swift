import ArgumentParser
import SerialIO

/// `tiltserial list`: the serial ports present, boards first.
struct List: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List serial ports with their USB ids, maker, product, serial number and by-id name.")

    func execute(_ context: CommandContext) throws(Failure) {
        let ports: [PortInfo]
        do { ports = try SerialPortLister.list() } catch { throw Failure(error) }
        let out = context.console
        if ports.isEmpty {
            out.writeOut("no serial ports found; plug the board in (a charge-only USB cable shows nothing)\n")
            return
        }
        let rows = ports.map { p -> [String] in
            let ids = p.usbVendorID.flatMap { v in p.usbProductID.map { PortPicker.hex(v) + ":" + PortPicker.hex($0) } } ?? "-"
            let board = p.knownBoardVendor != nil ? "board?" : ""
            return [p.path, ids, p.manufacturer ?? "-", p.product ?? p.description ?? "-", p.serialNumber ?? "-", board, p.byIdPath ?? "-"]
        }
        let header = ["PORT", "VID:PID", "MANUFACTURER", "PRODUCT", "SERIAL", "", "BY-ID"]
        let table = [header] + rows
        let widths = (0..<header.count).map { c in table.map { $0[c].count }.max() ?? 0 }
        for row in table {
            let line = row.enumerated().map { c, text in
                c == row.count - 1 ? text : text + String(repeating: " ", count: widths[c] - text.count)
            }.joined(separator: "  ")
            out.writeOut(line + "\n")
        }
    }
}
