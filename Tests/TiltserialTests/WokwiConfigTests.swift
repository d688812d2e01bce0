import Testing
@testable import TiltsimCommand

/// wokwi.toml's `[wokwi]` as tiltsim reads it.
@Suite struct WokwiConfigTests {
    @Test func aProjectsFirmwareAndItsNotices() throws {
        let config = try WokwiConfig.parse("[wokwi]\nversion = 1\nfirmware = 'build/a.hex' # the sketch\nelf = \"build/a.elf\"\ngdbServerPort = 3333\n",
                                           file: "wokwi.toml").get()
        #expect(config.firmware == "build/a.hex" && config.elf == "build/a.elf")
        #expect(config.notices == ["wokwi.toml:5: gdbServerPort is not modelled by tiltsim: ignored"])
    }

    /// TOML forbids a key twice in a table (wokwi-cli's reader refuses it);
    /// it was taken, the last one winning.
    @Test func aKeyTwiceIsRefusedWithBothLines() {
        let text = "[wokwi]\nversion = 1\nfirmware = 'a.hex'\nversion = 2\n"
        guard case .failure(let problem) = WokwiConfig.parse(text, file: "wokwi.toml") else {
            Issue.record("parsed")
            return
        }
        #expect(problem.message == "wokwi.toml:4: key 'version' appears twice in [wokwi] (first on line 2); keep one")
        // The same key in another table is that table's.
        #expect((try? WokwiConfig.parse("[wokwi]\nversion = 1\nfirmware = 'a.hex'\n[net]\nversion = 1\n", file: "w").get()) != nil)
    }
}
