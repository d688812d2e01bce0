import ArgumentParser

/// The board's port, as the PORT argument or `--port` (run, monitor,
/// calibrate, setup): one option group, so the four say it alike.
struct PortOptions: ParsableArguments {
    @Argument(help: "Serial port (/dev/ttyUSB0, /dev/ttyACM0, /dev/serial/by-id/...), or auto (the default): the only board plugged in.", completion: .file())
    var port: String?

    @Option(name: .customLong("port"), help: ArgumentHelp("Same as the PORT argument.", valueName: "PORT"), completion: .file())
    var portOption: String?

    /// The port named (the argument first), or the only board plugged in
    /// (`PortPicker`), saying which it picked.
    func resolve(say: (String) -> Void) throws(Failure) -> String {
        try PortPicker.resolve(port ?? portOption, say: say)
    }
}
