@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltCore
import TiltDisplay
import WireProtocol

/// Our firmware built for other boards of the Arduino AVR core, run on their
/// chip in simavr (issue 22): the same HELLO, samples, waiting screen and
/// glass as on the Uno. The 32U4 boards' serial port is the chip's own USB,
/// which CBoardParts' USB host enumerates (cbp_usb_serial.c).
@Suite struct EndToEndBoardsTests {
    /// `make -C Hardware check` builds every board; a board's ELF goes to build/BOARD.
    static func elf(_ board: String) throws -> String {
        let path = Firmware.root + "/Hardware/build/\(board)/tiltserial.elf"
        guard FileManager.default.fileExists(atPath: path) else {
            throw E2EFailure("Hardware/build/\(board)/tiltserial.elf is missing: build it with make -C Hardware BOARD=\(board) (make test does)")
        }
        return path
    }

    static func megaELF() throws -> String { try elf("mega") }

    /// `arduino`'s build on its chip and clock, lying face-up, free-running.
    static func faceUp(_ arduino: ArduinoBoard) throws -> AVRBoard.Configuration {
        var configuration = AVRBoard.Configuration(firmwarePath: try elf(arduino.rawValue), pace: .freeRunning,
                                                   motionSource: ConstantMotionSource.faceUp)
        configuration.configure(for: arduino)
        return configuration
    }

    /// `tiltsim --board mega|leonardo|micro|promicro-8mhz` (EmulatedBoardFactory.board): the
    /// board's build from the source tree on its chip, found without a path,
    /// INT where that board's sketches put it (the Mega's D2 is INT4; the
    /// 32U4's D2 is SDA, so D7, INT6), the 32U4's over the chip's own USB.
    @Test(arguments: [("mega", "atmega2560", AVRPin(port: "E", bit: 4)), ("leonardo", "atmega32u4", AVRPin(port: "E", bit: 6)),
                      ("micro", "atmega32u4", AVRPin(port: "E", bit: 6)), ("promicro-8mhz", "atmega32u4", AVRPin(port: "E", bit: 6)),
                      ("promini-8mhz", "atmega328p", AVRPin(port: "D", bit: 2))])
    func theFactoryRunsEachBoardsBuild(board name: String, mcu: String, interrupt: AVRPin) throws {
        _ = try Self.elf(name)
        var factory = EmulatedBoardFactory(engine: .avr, pace: .freeRunning)
        factory.board = name
        factory.holdUntilOpened = true
        var notices: [String] = []
        let made = try factory.makeBoard(index: 0, linkPath: nil) { notices.append($0) }
        defer { made.stop() }
        #expect(notices.isEmpty, "\(notices)")
        let board = try #require(made as? AVRBoard, "the avr engine, not the native fallback")
        #expect(board.configuration.mcu == mcu)
        #expect(board.configuration.frequency == (name.hasSuffix("-8mhz") ? 8_000_000 : 16_000_000))
        #expect(board.configuration.sensorInterruptPin == interrupt)
        #expect(board.configuration.firmwarePath.hasSuffix("Hardware/build/\(name)/tiltserial.elf"))
        // The Pro Mini of 3.3 V talks at 38400 (a host at 115200 reads garbage from it, as from a board).
        let client = try PtyPeer(opening: try #require(board.serialPath), baud: name == "promini-8mhz" ? 38400 : 115_200)
        board.start()
        #expect(try client.read { $0.samples.count >= 10 })
        #expect(client.hellos.first?.status == 3)
        #expect(EndToEndFirmwareTests.sequenceIssues(client.frames).isEmpty)
    }

    /// The Mega 2560's sensor and display sit on its own TWI pins (20/21), which
    /// simavr's ATmega2560 core models with the same TWI unit.
    @Test func theFirmwareRunsOnAMega2560() throws {
        var configuration = AVRBoard.Configuration(firmwarePath: try Self.megaELF(), pace: .freeRunning,
                                                   motionSource: ConstantMotionSource.faceUp)
        configuration.configure(for: .mega)
        configuration.sensorInterruptPin = nil
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == Self.waiting } != nil, "the waiting screen")
        try Self.expectStreamsDrawsAndDescribes(board, client)
    }

    static let waiting = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD"])
    /// The ATmega32U4 boards' serial port is their USB, whose baud rate is ignored.
    static let waitingOnUSB = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "USB SERIAL"])

    /// What the firmware does on any board once a host listens: gapless
    /// samples at 100 Hz from a board lying face up, a view on the glass
    /// pixel for pixel, PARTS for DESCRIBE.
    static func expectStreamsDrawsAndDescribes(_ board: AVRBoard, _ client: PtyPeer) throws {
        #expect(try client.read { $0.hellos.count >= 1 && $0.samples.count >= 50 })
        #expect(client.hellos.first?.status == 3, "sensor and display answered")
        #expect(client.hellos.first?.sampleRateHz == 100)
        #expect(client.samples.allSatisfy { $0.raw.accel.z == 16384 }, "face up at ±2 g")
        #expect(EndToEndFirmwareTests.sequenceIssues(client.frames).isEmpty)
        let offsets = OffsetsFrame(sequence: 0, viewportX: 101, viewportY: 37, ribbonX: 250, ribbonBottom: 15, flags: [])
        try client.send(offsets)
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == rendered(offsets) } != nil, "the view on the glass")
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first == PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C))
    }

    /// The Leonardo end to end, as a host meets it: it sends nothing while no
    /// one has its port open (DTR down: the Arduino core's CDC drops what the
    /// sketch writes), introduces itself when asked (HOST_HELLO, as tiltserial
    /// does on every open), streams, draws the host's view, and goes quiet
    /// again when the port closes.
    @Test func theFirmwareRunsOnALeonardoOverUSB() throws {
        var configuration = AVRBoard.Configuration(firmwarePath: try Self.elf("leonardo"), pace: .freeRunning,
                                                   motionSource: ConstantMotionSource.faceUp)
        configuration.configure(for: .leonardo)
        configuration.sensorInterruptPin = nil
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        let path = try #require(board.serialPath)
        board.start()
        let booted = board.waitFor(timeout: .seconds(20)) { $0.screen == Self.waitingOnUSB && $0.simulatedMicros > 500_000 }
        #expect(booted?.bytesFromAVR == 0, "nothing on the wire before a client raises DTR")

        let client = try PtyPeer(opening: path)
        try client.send(HostHelloFrame())
        try Self.expectStreamsDrawsAndDescribes(board, client)

        client.close()
        let closed = try #require(board.waitFor(timeout: .seconds(20)) { !$0.hostConnected })
        let quiet = try #require(board.waitFor(timeout: .seconds(20)) { $0.simulatedMicros > closed.simulatedMicros + 200_000 })
        let later = try #require(board.waitFor(timeout: .seconds(20)) { $0.simulatedMicros > quiet.simulatedMicros + 500_000 })
        #expect(later.bytesFromAVR == quiet.bytesFromAVR, "DTR down again: the sketch's writes are dropped on the board")
    }

    /// The 3.3 V boards: our firmware built for 8 MHz, on a core at 8 MHz. The
    /// Pro Micro's ATmega32U4 talks USB (its waiting screen says so, not a
    /// baud rate); the Pro Mini's ATmega328P cannot make 115200 baud at 8 MHz
    /// (3.5 % slow), so its build talks at 38400 and its waiting screen says so. Each board's own clock agrees with the sensor's
    /// (SAMPLE's board times 10 ms apart at 100 Hz: on a 16 MHz core they were
    /// 20 ms, the firmware's timer counting twice as fast as it thinks), no
    /// sample is lost on the slower line, and it streams, draws and describes
    /// as the 16 MHz boards do.
    @Test(arguments: [(ArduinoBoard.proMicro8MHz, "USB SERIAL"), (.proMini8MHz, "38400 BAUD")])
    func theFirmwareRunsOnAThreeVoltBoardAt8MHz(board arduino: ArduinoBoard, baudLine: String) throws {
        var configuration = try Self.faceUp(arduino)
        configuration.sensorInterruptPin = nil
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        let client = try PtyPeer(opening: try #require(board.serialPath), baud: arduino == .proMini8MHz ? 38400 : 115_200)
        board.start()
        let waiting = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: baudLine])
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == waiting } != nil, "the waiting screen names the line")
        try client.send(HostHelloFrame())
        try Self.expectStreamsDrawsAndDescribes(board, client)
        let times = client.samples.map(\.time.micros)
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.count >= 49 && steps.allSatisfy { $0 >= 9_800 && $0 <= 10_200 }, "\(steps.prefix(8))")
    }

    /// Without a sensor, each build's screen names its own board's I2C pins:
    /// every ATmega32U4 board's are 2 and 3 (the Pro Micro's said A4/A5,
    /// which its header does not have), the Mega's 20 and 21.
    @Test(arguments: [(ArduinoBoard.nano, "A4 SCL A5"), (.proMini8MHz, "A4 SCL A5"), (.mega, "20 SCL 21"),
                      (.leonardo, "2 SCL 3"), (.micro, "2 SCL 3"), (.proMicro8MHz, "2 SCL 3")])
    func theNoSensorScreenNamesTheBoardsOwnPins(board arduino: ArduinoBoard, pins: String) throws {
        var configuration = try Self.faceUp(arduino)
        configuration.sensorAddress = nil
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        board.start()
        let screen = statusScreen([1: "TILTSERIAL 1.0.0", 3: "NO SENSOR", 5: "CHECK SDA " + pins])
        #expect(board.waitFor(timeout: .seconds(30)) { $0.screen == screen } != nil, "\(arduino): CHECK SDA \(pins)")
    }

    /// tiltserial's own loop (HostRunner) on a Leonardo: a port that does not
    /// reset when opened, so the host's HOST_HELLO is what starts it. The tilt
    /// moves the view, and at rest the glass is the host's mirror, pixel for
    /// pixel, with no frame lost.
    @Test func theHostDrivesALeonardoAndTheGlassIsItsMirror() throws {
        var configuration = AVRBoard.Configuration(firmwarePath: try Self.elf("leonardo"), pace: .freeRunning,
                                                   motionSource: EndToEndAVRTests.motion(EndToEndAVRTests.moveThenRest))
        configuration.configure(for: .leonardo)
        let board = try AVRBoard(configuration)
        defer { board.stop() }
        board.start()
        // Booted and enumerated with no one listening: the boot HELLO went nowhere.
        let booted = try #require(board.waitFor(timeout: .seconds(20)) { $0.simulatedMicros > 300_000 })
        #expect(booted.bytesFromAVR == 0)
        let host = try RunningHost(port: try #require(board.serialPath))
        defer { _ = host.finish() }
        let resting = try #require(host.waitFor(seconds: 60) { $0.ticks.last.map { $0.timeMicros >= 5_500_000 } ?? false })
        let last = try #require(resting.offsets.last)
        #expect(last.viewportX > 0 && last.viewportY > 0, "the motion scrolled the view (\(last))")
        #expect(resting.mirror.screen == rendered(last))
        #expect(board.waitFor(timeout: .seconds(20)) { $0.screen == resting.mirror.screen } != nil,
                "the OLED shows the host's view \(last), pixel for pixel")
        let summary = try #require(host.finish())
        #expect(summary.counters.lostFrames == 0 && summary.counters.errors == 0, "\(summary.counters)")
        #expect(summary.counters.decoder.samplesDecoded >= 400)
    }
}
