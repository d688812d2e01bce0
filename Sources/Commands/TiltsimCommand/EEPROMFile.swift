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
        if let error = OutputFile.probe(target(file)) {
            throw .cannotCreate("\(file): cannot keep the EEPROM there (\(error)); pick a writable directory")
        }
    }

    /// The bytes `file` keeps for an EEPROM of `size` bytes; nil for a
    /// missing file (the EEPROM stays erased). Its size is checked before
    /// anything is read (a 2 GiB file was read whole, then refused).
    static func load(_ file: String, size: Int) throws(CommandFailure) -> [UInt8]? {
        guard case .success(let status) = FileStatus.of(file) else { return nil }
        // A file of another size is no EEPROM of this board (a text file named by
        // mistake was overwritten with 1024 bytes); an empty one is erased.
        if status.size == 0 { return nil }
        guard status.size == size else {
            throw CommandFailure(.badFile, "\(file): \(status.size) bytes, not this board's EEPROM (\(size) bytes); "
                + "give another file, or delete it to start erased")
        }
        guard let handle = FileHandle(forReadingAtPath: file), let data = try? handle.read(upToCount: size), data.count == size else {
            throw CommandFailure(.badFile, "\(file): cannot read this EEPROM file; check its permissions")
        }
        try? handle.close()
        return Array(data)
    }

    /// Writes an EEPROM's `bytes` to `file` all at once; says so in one line if it cannot.
    static func save(_ bytes: [UInt8], to file: String) {
        guard !bytes.isEmpty else { return }
        if case .failure(let failure) = AtomicFile.replace(target(file), with: bytes) {
            StandardStreams.err("tiltsim: \(CommandFailure.shown(file)): cannot save the EEPROM (\(failure.reason)); it is lost with this run\n")
        }
    }

    /// `--eeprom` for a run in simulated time (`tiltsim run`, `tiltsim
    /// wokwi`): `file` (if any) checked and read into `machine` before it
    /// runs; call what comes back when the run ends, to write it back.
    static func keep(_ file: String?, in machine: AVRMachine) throws(CommandFailure) -> () -> Void {
        guard let file else { return {} }
        try checkWritable(file)
        if let bytes = try load(file, size: machine.eeprom.count) { machine.eeprom = bytes }
        return { save(machine.eeprom, to: file) }
    }
}
