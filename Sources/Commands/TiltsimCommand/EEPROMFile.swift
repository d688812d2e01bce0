import BoardEmulator
import Foundation
import SerialIO
import TiltExitStatus

/// `tiltsim --eeprom FILE`: the emulated board's EEPROM kept between runs, as
/// a board keeps it between power cycles (what `tiltserial setup` stores
/// survives restarting tiltsim). The file is the EEPROM's bytes, nothing else.
enum EEPROMFile {
    /// The file written at exit: a symlink's target (the link itself stays,
    /// as tiltserial's config file does), else `file`.
    static func target(_ file: String) -> String {
        (try? FileStatus.of(file).get()) != nil ? FileSystem.resolved(file) : file
    }

    /// Checked before the board starts, so a run whose EEPROM could not be
    /// kept does not begin (the failure came at exit, the run's EEPROM lost).
    static func checkWritable(_ file: String) throws(CommandFailure) {
        if let status = try? FileStatus.of(file).get(), status.kind != .regular {
            throw CommandFailure(.badFile, "\(file): not a regular file; give a file for the EEPROM (it is created if missing)")
        }
        let temporary = target(file) + ".tmp"
        if let error = FileSystem.touch(temporary) {
            throw .cannotCreate("\(file): cannot keep the EEPROM there (\(error)); pick a writable directory")
        }
        FileSystem.remove(temporary)
    }

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
        if case .failure(let failure) = AtomicFile.replace(target(file), with: bytes) {
            FileHandle.standardError.write(Data("tiltsim: \(CommandFailure.shown(file)): cannot save the EEPROM (\(failure.reason)); it is lost with this run\n".utf8))
        }
    }
}
