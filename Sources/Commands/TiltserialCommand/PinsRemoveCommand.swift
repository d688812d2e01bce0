import ArgumentParser
import TiltCore

/// `tiltserial pins remove N`: one pin, by its number in `pins list`.
struct PinsRemove: TiltserialSubcommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove pin N (as numbered by `pins list`).")

    @Argument(help: "The pin's number in `tiltserial pins list` (1 = the oldest).")
    var number: String

    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let store = try pins.requiredStore(paths: context.paths)
        var list = try store.load(bounded: false)
        guard let n = Int(number), list.indices.contains(n - 1) else {
            let range = list.isEmpty ? "there are no pins"
                : list.count == 1 ? "give 1, the only one (see `tiltserial pins list`)"
                : "give 1 to \(list.count) (see `tiltserial pins list`)"
            let what = Int(number) == nil ? "not a pin's number" : "no such pin"
            throw Failure(.badSettings, "pins remove \(OneLineText.escaped(number, limit: 40)): \(what); \(range)")
        }
        let removed = list.remove(at: n - 1)
        try store.save(list)
        context.console.writeErr(
            "tiltserial: removed pin \(n) (\(JSONLines.itemName(removed.item, store.items)) at \(removed.x),\(removed.y)); \(list.count) left\n")
    }
}
