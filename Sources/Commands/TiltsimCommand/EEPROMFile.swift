import BoardEmulator
import Foundation
import SerialIO
import TiltExitStatus

/// `tiltsim --eeprom FILE`: the emulated board's EEPROM kept between runs, as
/// a board keeps it between power cycles (what `tiltserial setup` stores
/// survives restarting tiltsim). The file is the EEPROM's bytes, nothing else.
enum EEPROMFile {
    /// Reads `file` into the board's EEPROM; a missing file leaves it erased.
    static func load(_ file: String, into board: AVRBoard) throws(CommandFailure) {
        guard FileManager.default.fileExists(atPath: file) else { return }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure(.badFile, "\(file): cannot read this EEPROM file; check its permissions")
        }
        let size = board.eeprom.count
        guard data.count <= size else {
            throw CommandFailure(.badFile, "\(file): \(data.count) bytes, more than the board's EEPROM holds (\(size)); "
                + "give another file, or delete it to start erased")
        }
        board.eeprom = Array(data)
    }

    /// Writes the board's EEPROM to `file` all at once; says so in one line if it cannot.
    static func save(_ board: AVRBoard, to file: String) {
        let bytes = board.eeprom
        guard !bytes.isEmpty else { return }
        if case .failure(let failure) = AtomicFile.replace(file, with: bytes) {
            FileHandle.standardError.write(Data("tiltsim: \(file): cannot save the EEPROM (\(failure.reason)); it is lost with this run\n".utf8))
        }
    }
}
