import Testing
@testable import TiltCore

@Suite struct AxisMappingTests {
    @Test func parsesEveryMountingAndPrintsItBack() throws {
        for mapping in allMappings {
            #expect(try AxisMapping(parsing: mapping.description) == mapping)
        }
        #expect(try AxisMapping(parsing: "xyz") == .identity)
        #expect(try AxisMapping(parsing: " -Y, x ,z ").description == "-y,x,z")
    }

    @Test(arguments: ["", "x,y", "x,y,z,x", "x,y,w", "--x,y,z", "x,y,z-", "1,2,3"])
    func rejectsMalformedText(text: String) {
        #expect(throws: AxisMapping.ParseError.malformed(text)) { try AxisMapping(parsing: text) }
    }

    @Test func rejectsARepeatedAxisWithAMessageThatSaysSo() {
        #expect(throws: AxisMapping.ParseError.repeatedAxis("x,-x,z")) { try AxisMapping(parsing: "x,-x,z") }
        #expect(AxisMapping.ParseError.repeatedAxis("x,x,z").description.contains("use each of x, y, z once"))
    }

    @Test func negatingTheMostNegativeCountDoesNotOverflow() {
        let flipped = AxisMapping(x: .init(.x, negated: true), y: .init(.y), z: .init(.z))!
        #expect(flipped.apply(Axes3(x: -32768, y: 0, z: 0)).x == 32768)
    }
}

@Suite struct RawSampleTests {
    @Test func decodesTheBurstBigEndianInRegisterOrder() {
        let burst: [UInt8] = [0x80, 0x00, 0x7F, 0xFF, 0x00, 0x01, 0xFE, 0xAC, 0x12, 0x34, 0xFF, 0xFF, 0x40, 0x00]
        let sample = RawSample(burst: burst)
        #expect(sample?.accel == Axes3(x: -32768, y: 32767, z: 1))
        #expect(sample?.temperature == -340)
        #expect(sample?.gyro == Axes3(x: 0x1234, y: -1, z: 16384))
        #expect(sample?.burstBytes == burst)
        #expect(RawSample(burst: burst.dropLast()) == nil)
    }
}

@Suite struct CRC16Tests {
    @Test func hasTheCatalogueCheckValue() {
        #expect(CRC16.checksum(Array("123456789".utf8)) == 0x29B1)
        #expect(CRC16.checksum([UInt8]()) == 0xFFFF)
    }

    @Test func aPayloadFollowedByItsBigEndianCRCLeavesZero() {
        let payload: [UInt8] = [0x02, 0x00, 0x10, 0x27, 0x00, 0xFF]
        let crc = CRC16.checksum(payload)
        #expect(CRC16.checksum(payload + [UInt8(crc >> 8), UInt8(crc & 0xFF)]) == 0)
    }
}

@Suite struct ContentGeometryTests {
    @Test func growsTheTileByWholeTilesToFourTimesTheDisplay() {
        let shipped = ContentGeometry(tileWidth: 256, tileHeight: 128)
        #expect((shipped.contentWidth, shipped.contentHeight) == (512, 256))
        let odd = ContentGeometry(tileWidth: 100, tileHeight: 60)
        #expect((odd.contentWidth, odd.contentHeight) == (600, 300))
        #expect((odd.maxViewportX, odd.maxViewportY) == (472, 236))
    }
}

@Suite struct FixedTests {
    @Test func printsFourDecimalPlacesWithIntegerArithmetic() {
        #expect(Fixed.one.description == "1.0000")
        #expect(Fixed(raw: -98304).description == "-1.5000")
        #expect(Fixed(raw: 1).description == "0.0000")
        #expect(Fixed(raw: 65535).description == "1.0000")
        #expect(Fixed(raw: 2_394_030).description == "36.5300")
    }
}
