#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TiltserialSettings

/// `--config FILE`: reads the file (at most `SettingsResolver.maxConfigBytes`,
/// refused by its size before reading when it is a regular file, and read no
/// further than that when it is a pipe or device) and hands its bytes to the
/// pure `SettingsResolver.addConfig`.
enum ConfigFile {
    static func bytes(path: String) throws(Failure) -> [UInt8] {
        let limit = SettingsResolver.maxConfigBytes
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(.badSettings, "\(path): cannot open the config file (\(String(cString: strerror(errno)))); check the path")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > limit {
            throw Failure(.badSettings, SettingsResolver.tooLarge(path: path, bytes: Int(info.st_size)).message)
        }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        let (count, error) = bytes.withUnsafeMutableBytes { readFilling(fd, $0) }
        if let error {
            throw Failure(.badSettings, "\(path): cannot read the config file (\(String(cString: strerror(error)))); check the path")
        }
        guard count <= limit else {
            throw Failure(.badSettings, "\(path): more than \(limit) bytes is too large for a config file; see docs/usage.md")
        }
        return Array(bytes[..<count])
    }
}
