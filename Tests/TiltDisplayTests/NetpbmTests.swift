import Testing
import TiltCore
import TiltDisplay

private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

private func error(_ body: () throws(NetpbmError) -> Void) -> String? {
    do { try body(); return nil } catch { return error.description }
}

@Suite struct PBMTests {
    @Test func plainWithCommentsAndLooseWhitespace() throws {
        let image = try PBM.parse(bytes("P1\n# comment\n 3 2 # trailing\n1 0 1\n01\n1"))
        #expect(image.width == 3 && image.height == 2)
        #expect(image.pixels == [1, 0, 1, 0, 1, 1])
        #expect(image[0, 0] && !image[1, 0] && image[2, 1])
    }

    @Test func rawRowsArePaddedToBytesMostSignificantBitFirst() throws {
        let image = try PBM.parse(bytes("P4\n10 2\n") + [0b1000_0000, 0b0100_0000, 0b0000_0001, 0b1000_0000])
        #expect(image.pixels == [1, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                                 0, 0, 0, 0, 0, 0, 0, 1, 1, 0])
    }

    @Test(arguments: [
        ("P3\n1 1\n1", "P1 or P4"),
        ("", "too few bytes"),
        ("P1\n", "ends before the width"),
        ("P1\n2", "ends before the height"),
        ("P1\nx 2", "expected a decimal width"),
        ("P1\n0 2\n", "must be positive"),
        ("P1\n2 1\n1 2", "only 0 and 1"),
        ("P1\n2 2\n1 0 1", "ends after 3 of 4 pixels"),
        ("P4\n16 2\n\u{1}\u{2}\u{3}", "needs 4 bytes"),
        ("P1\n16000 16000\n1 0", "has only 4 bytes left"),
        ("P1\n99999999 1\n", "larger than"),
    ])
    func malformedInputNamesTheProblem(input: String, expected: String) {
        let message = error { () throws(NetpbmError) in _ = try PBM.parse(bytes(input)) }
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
        #expect(message?.contains("\n") == false)
    }
}

@Suite struct PGMTests {
    @Test func plainMaxval255() throws {
        let mask = try PGM.parse(bytes("P2\n# c\n2 2\n255\n0 85\n86 255\n"))
        #expect(mask.width == 2 && mask.height == 2)
        #expect(mask.alpha == [0, 85, 86, 255])
    }

    @Test func otherMaxvalsAreScaledTo255() throws {
        #expect(try PGM.parse(bytes("P2 3 1 15 0 15 7")).alpha == [0, 255, 119])  // 7*255/15 = 119
        #expect(try PGM.parse(bytes("P5 2 1 1000\n") + [0x03, 0xE8, 0x01, 0xF4]).alpha == [255, 128])  // 500/1000 -> 127.5 -> 128
    }

    @Test func raw8Bit() throws {
        #expect(try PGM.parse(bytes("P5\n3 1\n255\n") + [1, 2, 250]).alpha == [1, 2, 250])
    }

    @Test(arguments: [
        ("P1\n1 1\n1", "P2 or P5"),
        ("P2\n2 1\n", "ends before the maxval"),
        ("P2\n2 1\n0\n0 0", "maxval must be"),
        ("P2\n2 1\n255\n0 256", "above maxval 255"),
        ("P2\n2 1\n255\n7  ", "ends after 1 of 2"),
        ("P2\n2 1\n255\n7", "needs at least 3 more bytes"),
        ("P2\n2 1\n255\n7 q", "expected a decimal sample 1"),
        ("P5\n4 1\n255\n\u{1}", "needs at least 5 more bytes"),
        ("P2\n16000 16000\n255\n0 0", "needs at least"),
        ("P5\n1 1\n255XY", "one whitespace byte"),
    ])
    func malformedInputNamesTheProblem(input: String, expected: String) {
        let message = error { () throws(NetpbmError) in _ = try PGM.parse(bytes(input)) }
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
        #expect(message?.contains("\n") == false)
    }
}

@Suite struct NetpbmErrorTests {
    /// Callers can match what went wrong, not only read it.
    @Test func errorsAreCasesWithTheirValues() {
        #expect(throws: NetpbmError.badPixel(index: 1, x: 1, y: 0, found: UInt8(ascii: "2"))) { try PBM.parse(bytes("P1\n2 1\n1 2")) }
        #expect(throws: NetpbmError.wrongMagic(expected: "PGM", found: Array("P1".utf8))) { try PGM.parse(bytes("P1\n1 1\n1")) }
        #expect(throws: NetpbmError.aboveMaxval(format: "PGM P5", index: 0, x: 0, y: 0, value: 9, maxval: 3)) {
            try PGM.parse(bytes("P5 1 1 3\n") + [9])
        }
        #expect(NetpbmError.wrongMagic(expected: "PBM", found: [0x00, 0xFF]).description
            == "PBM: expected magic number P1 or P4 at the start, found byte 0x0, byte 0xff")
    }
}

@Suite struct NetpbmRobustnessTests {
    /// Mutated and truncated files either parse or throw; they never trap.
    @Test func mutatedInputsParseOrThrow() {
        var rng = SplitMix64(seed: 99)
        let seeds: [[UInt8]] = [Array("P1\n# c\n4 2\n1 0 1 1\n0 0 1 0\n".utf8), Array("P4 8 2\n".utf8) + [0xA5, 0x5A],
                                Array("P2\n3 1\n255\n0 128 255\n".utf8), Array("P5 2 2 255\n".utf8) + [1, 2, 3, 4]]
        var parsed = 0, thrown = 0
        for _ in 0..<4000 {
            var bytes = seeds.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !bytes.isEmpty: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 1 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 0...bytes.count, using: &rng))
                default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
                }
            }
            do { _ = try PBM.parse(bytes); parsed += 1 } catch { thrown += 1; #expect(!error.description.contains("\n")) }
            do { _ = try PGM.parse(bytes); parsed += 1 } catch { thrown += 1; #expect(!error.description.contains("\n")) }
        }
        #expect(parsed > 0 && thrown > 0)
    }
}
