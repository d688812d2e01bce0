import ArgumentParser

/// `tiltserial pins clear`: no pins left.
struct PinsClear: TiltserialSubcommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every pin.")

    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let store = try pins.requiredStore(paths: context.paths)
        let before = try store.load(bounded: false)  // only a pins file is overwritten
        try store.save([])
        context.console.writeErr("tiltserial: removed \(before.count) pin\(before.count == 1 ? "" : "s") from \(store.path)\n")
    }
}
