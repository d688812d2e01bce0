import ArgumentParser
import TiltCore

/// `tiltserial pins remove N…`: pins by their numbers in `pins list`.
struct PinsRemove: TiltserialSubcommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove pins by number (as numbered by `pins list`).")

    /// Every word not an option, so that `-1` is answered as a number that
    /// names no pin, not as an unknown option with the number missing.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The pins' numbers in `tiltserial pins list` (1 = the oldest).", valueName: "number"))
    var words: [String] = []

    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        // `--` ends the options (`pins remove -- 2`): not a number.
        var words = self.words
        if let end = words.firstIndex(of: "--") { words.remove(at: end) }
        let given = try pins.requiredStore(paths: context.paths)
        guard !words.isEmpty else {
            throw Failure(.badSettings, "pins remove needs a pin's number, e.g. \(given.command("remove 1")) (see `\(given.command("list"))`)")
        }
        let loaded = try given.loadForEditing()
        let store = loaded.store
        var list = loaded.pins
        var numbers: [Int] = []
        for word in words {
            guard let n = Int(word), list.indices.contains(n - 1) else {
                let range = !loaded.found ? store.missingFileNote
                    : list.isEmpty ? "there are no pins"
                    : list.count == 1 ? "give 1, the only one (see `\(store.command("list"))`)"
                    : "give 1 to \(list.count) (see `\(store.command("list"))`)"
                let what = Int(word) == nil ? "not a pin's number" : "no such pin"
                throw Failure(.badSettings, "pins remove \(OneLineText.escaped(word, limit: 40)): \(what); \(range)")
            }
            if !numbers.contains(n) { numbers.append(n) }
        }
        // Each number names a pin of the list as it was listed: the later ones go first.
        let said = numbers.map { n in
            let pin = list[n - 1]
            return "\(n) (\(JSONLines.itemName(pin.item, store.items)) at \(pin.x),\(pin.y))"
        }
        for n in numbers.sorted(by: >) { list.remove(at: n - 1) }
        try store.save(list)
        let what = said.count == 1 ? "pin " + said[0] : "pins " + said.dropLast().joined(separator: ", ") + " and " + said.last!
        context.console.writeErr("tiltserial: removed \(what); \(list.count) left\n")
    }
}
