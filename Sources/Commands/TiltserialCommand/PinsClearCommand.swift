import ArgumentParser

/// `tiltserial pins clear`: no pins left.
struct PinsClear: TiltserialSubcommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every pin.")

    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let store = try pins.requiredStore(paths: context.paths)
        // Only a file with a pins file's shape is overwritten (any item names: a
        // file with an unknown item is what `run` tells a person to clear).
        guard let before = try store.countForClearing() else {
            context.console.writeErr("tiltserial: \(store.path): no pins file; nothing to remove\n")
            return
        }
        try store.save([])
        context.console.writeErr("tiltserial: removed \(before) pin\(before == 1 ? "" : "s") from \(store.path)\n")
    }
}
