@_exported import TiltserialSettings

/// Which config file a run's settings came from.
enum ConfigUse: Equatable {
    /// None: `--no-config`, or no default location (no HOME).
    case none
    /// `--config FILE`.
    case given(String)
    /// The default file, which exists.
    case defaultFile(String)
    /// The default file's place, where there is no file yet (no calibration).
    case defaultMissing(String)
}

extension SettingsOptions {
    /// Defaults, then a config file, then the options; validated. With
    /// `defaultFile`, the default config file is read when it exists (unless
    /// `--config` or `--no-config` says otherwise); `demo` passes nil: its
    /// emulated board is mounted as the table's defaults say.
    func resolve(defaultFile: String? = nil) throws(Failure) -> (settings: HostSettings, config: ConfigUse) {
        if config != nil && noConfig {
            throw Failure(.badSettings, "--config and --no-config contradict each other; give one of them")
        }
        let use: ConfigUse
        let bytes: [UInt8]?
        if let config {
            use = .given(config)
            bytes = try ConfigFile.bytes(path: config)
        } else if noConfig {
            use = .none
            bytes = nil
        } else if let defaultFile {
            do {
                bytes = try ConfigFile.bytesIfPresent(path: defaultFile)
            } catch {
                throw Failure(error.code, error.message + " (or run with --no-config)")  // a file nobody named
            }
            use = bytes == nil ? .defaultMissing(defaultFile) : .defaultFile(defaultFile)
        } else {
            use = .none
            bytes = nil
        }
        do {
            var resolver = SettingsResolver()
            if let bytes {
                switch use {
                case .given(let path), .defaultFile(let path): try resolver.addConfig(bytes, path: path)
                case .none, .defaultMissing: break
                }
            }
            for (flag, text) in given { try resolver.addOption(flag: flag, text: text) }
            return (try resolver.resolve(), use)
        } catch {
            if case .defaultFile(let path) = use, error.message.hasPrefix(path) {
                throw Failure(.badSettings, error.message + " (or run with --no-config)")
            }
            throw Failure(.badSettings, error.message)
        }
    }
}
