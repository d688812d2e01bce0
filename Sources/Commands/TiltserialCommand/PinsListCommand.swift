import ArgumentParser
import TiltAssets

/// `tiltserial pins list`: one line per pin, oldest first, numbered from 1.
struct PinsList: TiltserialSubcommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the pins, oldest first, numbered for `pins remove`.")

    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let store = try pins.requiredStore(paths: context.paths)
        let list = try store.load(bounded: false)
        if list.isEmpty {
            context.console.writeErr("tiltserial: no pins in \(store.path)\n")
            return
        }
        var text = ""
        for (i, pin) in list.enumerated() {
            text += "\(i + 1)  \(JSONLines.itemName(pin.item, store.items))  \(pin.x),\(pin.y)\n"
        }
        context.console.writeOut(text)
    }
}
