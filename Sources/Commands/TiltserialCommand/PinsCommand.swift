import ArgumentParser

/// `tiltserial pins`: the pins dropped on the map, kept in the pins file.
struct Pins: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins",
        abstract: "List or remove the pins dropped on the map (kept in the pins file).",
        discussion: """
            The pins file is written by a run each time an item is dropped; these commands edit it. \
            A run that is going on keeps its own list and writes it at its next drop.
            """,
        subcommands: [PinsList.self, PinsClear.self, PinsRemove.self],
        defaultSubcommand: PinsList.self)
}
