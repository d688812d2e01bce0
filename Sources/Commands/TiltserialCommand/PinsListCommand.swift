import ArgumentParser
import TiltAssets

/// `tiltserial pins list`: one line per pin, oldest first, numbered from 1.
struct PinsList: TiltserialSubcommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the pins, oldest first, numbered for `pins remove`.")

    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let (list, store, found) = try pins.requiredStore(paths: context.paths).loadForEditing()
        if list.isEmpty {
            context.console.writeErr("tiltserial: \(found ? "no pins in \(store.path)" : store.missingFileNote)\n")
            return
        }
        var text = ""
        for (i, pin) in list.enumerated() {
            text += "\(i + 1)  \(JSONLines.itemName(pin.item, store.items))  \(pin.x),\(pin.y)\n"
        }
        context.console.writeOut(text)
        // Names the drawer lacks (a newer art's, a hand edit): a run refuses the file until they go.
        let foreign = list.indices.filter { list[$0].item >= TiltAssets.itemNames.count }
        if !foreign.isEmpty {
            let numbers = foreign.map { String($0 + 1) }
            context.console.writeErr("tiltserial: \(foreign.count == 1 ? "pin \(numbers[0]) names an item" : "pins \(numbers.joined(separator: ", ")) name items") "
                                     + "this drawer lacks, so a run refuses the file; remove \(foreign.count == 1 ? "it" : "them"): \(store.command("remove " + numbers.joined(separator: " ")))\n")
        }
    }
}
