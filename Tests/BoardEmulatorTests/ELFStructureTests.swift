import Foundation
import Testing
@testable import BoardEmulator

/// Damaged ELF files are refused before simavr reads them (it segfaulted
/// on e_shstrndx 0xFFFE and on 25 of an outside tester's 150 mutants):
/// each damage is named, every ELF the build makes still loads, and no
/// mutant of a fixture crashes tiltsim.
@Suite struct ELFStructureTests {
    let tiltsim = TiltsimCommandTests()

    static func fixture() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try SketchFixtures.bootEcho.get().elf)))
    }

    /// The fixture's fields, to aim a damage.
    struct Layout {
        var bytes: [UInt8]
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        mutating func set16(_ at: Int, _ value: Int) { for i in 0..<2 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) } }
        mutating func set32(_ at: Int, _ value: Int) { for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) } }
        /// Where section `index`'s header is.
        func header(_ index: Int) -> Int { u32(32) + index * 40 }
        /// The first section of `type`, or named `name`.
        func section(type: Int) -> Int { (0..<u16(48)).first { u32(header($0) + 4) == type }! }
        func section(named name: String) -> Int {
            let names = u32(header(u16(50)) + 16)
            return (0..<u16(48)).first { index in
                let start = names + u32(header(index))
                return Array(bytes[start...].prefix { $0 != 0 }) == Array(name.utf8)
            }!
        }
        /// Renames `old` to `new` (as long) in the section name table.
        mutating func rename(_ old: String, _ new: String) {
            let names = u32(header(u16(50)) + 16), at = names + u32(header(section(named: old)))
            bytes.replaceSubrange(at..<(at + new.utf8.count), with: Array(new.utf8))
        }
    }

    static let damages: [(what: String, problem: String, damage: @Sendable (inout Layout) -> Void)] = [
        ("e_shstrndx 0xFFFE", "its section name table is section 65534, of 13", { $0.set16(50, 0xFFFE) }),
        ("e_shstrndx 0", "its section name table is section 0, of 13", { $0.set16(50, 0) }),
        ("section headers past the end", "the section header table ends past the end of the file", { $0.set32(32, $0.bytes.count - 8) }),
        ("section header size 0", "section headers of 0 bytes, not 40", { $0.set16(46, 0) }),
        ("program headers past the end", "the program header table ends past the end of the file", { $0.set32(28, 0xFFFF_FFF0) }),
        ("extended section count", "no section count (extended numbering)", { $0.set16(48, 0) }),
        ("big-endian", "its data is not little-endian, as the AVR's is", { $0.bytes[5] = 2 }),
        (".text past the end", "section 2's data ends past the end of the file", { $0.set32($0.header($0.section(named: ".text")) + 16, 0xFFFF_FF00) }),
        (".text of 2 GiB", "section 2's data ends past the end of the file", { $0.set32($0.header($0.section(named: ".text")) + 20, 0x7FFF_FFFF) }),
        (".text without data", "its .text section holds no data in the file", { $0.set32($0.header($0.section(named: ".text")) + 4, 8) }),
        ("symbol entry size 0", "symbol table 11 has entries of 0 bytes", { $0.set32($0.header($0.section(type: 2)) + 36, 0) }),
        ("symbol table linked nowhere", "symbol table 11 links to no section (65535)", { $0.set32($0.header($0.section(type: 2)) + 24, 0xFFFF) }),
        ("symbol table linked to code", "symbol table 11's string table is no string table", { $0.set32($0.header($0.section(type: 2)) + 24, 2) }),
        ("a symbol's name out of range", "symbol table 11 names a symbol outside its string table", {
            $0.set32($0.u32($0.header($0.section(type: 2)) + 16) + 16, 0xFF_FFFF)
        }),
        ("names without their last NUL", "the section name table does not end with a NUL", {
            let names = $0.header($0.u16(50))
            $0.bytes[$0.u32(names + 16) + $0.u32(names + 20) - 1] = 0x41
        }),
        (".lock without .fuse", "a .lock section without a .fuse section", { $0.rename(".data", ".lock") }),
        (".fuse of 7 bytes", "its .fuse section is 7 bytes, at most 6", { $0.rename(".data", ".fuse"); $0.set32($0.header(1) + 20, 7) }),
        (".mmcu name without its end", "its .mmcu section has a name with no end or too long", {
            $0.rename(".data", ".mmcu")
            let at = $0.u32($0.header(1) + 16)
            $0.bytes.replaceSubrange(at..<(at + 6), with: [1, 4] + Array("abcd".utf8))
            $0.set32($0.header(1) + 20, 6)
        }),
        (".mmcu cut inside a tag", "its .mmcu section ends inside a tag", {
            $0.rename(".data", ".mmcu")
            $0.bytes[$0.u32($0.header(1) + 16) + 1] = 200
        }),
    ]

    /// Each damage is named; the file is refused in one line with exit 27.
    @Test(arguments: 0..<damages.count) func eachDamageIsNamed(_ index: Int) throws {
        let damage = Self.damages[index]
        var layout = Layout(bytes: try Self.fixture())
        #expect(ELFStructure.problem(in: layout.bytes) == nil, "the fixture holds")
        damage.damage(&layout)
        #expect(ELFStructure.problem(in: layout.bytes) == damage.problem, "\(damage.what)")
    }

    /// Every ELF the build makes (our firmware for each board, the fixtures,
    /// the examples) holds.
    @Test func everyBuiltELFHolds() throws {
        var checked = 0
        for folder in ["Hardware/build", BuiltFirmware.fixtures, "examples"] {
            let root = BuiltFirmware.root + "/" + folder
            for case let path as String in FileManager.default.enumerator(atPath: root) ?? .init() where path.hasSuffix(".elf") {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
                #expect(ELFStructure.problem(in: bytes) == nil, "\(folder)/\(path)")
                checked += 1
            }
        }
        #expect(checked >= 20, "built ELFs found: \(checked) (make test builds them)")
    }

    /// A __vectors symbol near 4 GiB made simavr's base plus size wrap in
    /// 32 bits past both flash checks into a memcpy 4 GiB away (a segfault);
    /// the file is refused as too big for the chip.
    @Test func aBaseNear4GiBIsRefusedNotCopied() throws {
        var layout = Layout(bytes: try Self.fixture())
        let symbols = layout.header(layout.section(type: 2)), strings = layout.header(layout.u32(symbols + 24))
        let vectors = stride(from: layout.u32(symbols + 16), to: layout.u32(symbols + 16) + layout.u32(symbols + 20), by: 16).first { entry in
            let name = layout.u32(strings + 16) + layout.u32(entry)
            return Array(layout.bytes[name...].prefix { $0 != 0 }) == Array("__vectors".utf8)
        }!
        layout.set32(vectors + 4, 0xFFFF_FF00)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-base-\(getpid()).elf").path
        try Data(layout.bytes).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try tiltsim.run(["run", file, "--timeout", "0.01", "--quiet"])
        #expect(result.code == 27, "\(result.err)")
        #expect(result.err.hasPrefix("tiltsim: firmware \(file) needs 42949") && result.err.hasSuffix(" bytes of flash, the atmega328p has 32768\n"),
                "\(result.err)")
    }

    /// Mutants of a fixture as a fuzzer makes them (1 to 4 bytes changed,
    /// mostly in the ELF header, the section headers and the symbol table;
    /// seeded, so every run makes the same 150): tiltsim runs each or refuses
    /// it, and never crashes or hangs.
    @Test(arguments: 0..<6) func noMutantCrashesTiltsim(_ batch: Int) throws {
        let original = try Self.fixture()
        let layout = Layout(bytes: original)
        let table = layout.u32(32)..<(layout.u32(32) + layout.u16(48) * 40)
        let symbols = layout.header(layout.section(type: 2))
        let symbolTable = layout.u32(symbols + 16)..<(layout.u32(symbols + 16) + layout.u32(symbols + 20))
        let folder = try ScratchFolder()
        for index in (batch * 25)..<(batch * 25 + 25) {
            var random = SplitMix(seed: UInt64(index))
            var bytes = original
            for _ in 0...(random.next() % 4) {
                let region: Range<Int> = switch random.next() % 10 {
                case 0...3: 5..<52
                case 4...7: table
                case 8: symbolTable
                default: 0..<bytes.count
                }
                let at = region.lowerBound + Int(random.next() % UInt64(region.count))
                bytes[at] = switch random.next() % 4 {
                case 0: UInt8(truncatingIfNeeded: random.next())
                case 1: 0xFF
                case 2: 0
                default: bytes[at] &+ UInt8(1 + random.next() % 4)
                }
            }
            let file = folder.path + "/m\(index).elf"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let result = try tiltsim.run(["run", file, "--timeout", "0.01", "--quiet"], seconds: 20)
            // 0 ran, 24 the sketch crashed in the simulator, 27 refused: anything else is tiltsim's own end.
            #expect([0, 24, 27].contains(result.code), "mutant \(index): exit \(result.code): \(result.err)")
            if result.code == 27 { #expect(result.err.split(separator: "\n").count == 1, "mutant \(index): \(result.err)") }
        }
    }

    /// SplitMix64 (Steele, Lea, Flood 2014): a small seeded generator.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
