import FirmwareCore
import Testing
import TiltAssets
import TiltDisplay
import WireProtocol
@testable import BoardEmulator

/// The native board's display pipeline (the firmware's tilt_pipe over a
/// modelled 400 kHz bus) driven in board time, with no thread and no pty.
/// The bounds come from the bus by hand: a frame is a 9-byte window command
/// (the SSD1306's horizontal addressing), then 8 pages of a 3-byte data
/// header and 128 data bytes, 1057 bus bytes, 24.6 ms at 23.3 µs a byte
/// (22.5 µs of SCL at 400 kHz and the driver's 0.8 µs): at most 40.6 frames
/// a second, before the sensor takes its share of the bus.
@Suite struct NativeDisplayPipeTests {
    static let frameMicros: UInt64 = 1057 * 23_300 / 1000
    static let renderer = try! TiltAssets.load().renderer

    /// A powered-on firmware at `rateHz` and its pipe, the status screen drawn (100 ms in).
    struct Rig {
        var firmware = NativeFirmware(version: (1, 0, 0))
        var input = NativeInput()
        var pipe = NativeDisplayPipe()
        let period: UInt64
        var readies: [(at: UInt64, idle: Bool)] = []
        var sequence: UInt8 = 0

        init(rateHz: Int) {
            firmware.powerOn(rateHz: rateHz)
            period = NativeFirmware.period(rateHz)
            run(until: 100_000)
        }

        mutating func run(until t: UInt64) {
            var readies = self.readies
            _ = pipe.run(until: t, nextSample: period, period: period, firmware: &firmware, render: { view, scene in
                guard let view else { return NativeFirmware.statusScreen(version: (1, 0, 0), sensorOK: true) }
                var screen = Screen()
                NativeDisplayPipeTests.renderer.render(viewportX: view.viewport_x, viewportY: view.viewport_y,
                                                       ribbonX: view.ribbon_x, ribbonBottom: view.ribbon_bottom,
                                                       scene: scene, into: &screen)
                return screen
            }, ready: { readies.append(($0, $1)) })
            self.readies = readies
        }

        /// An OFFSETS frame for view (x, y) reaching the firmware at `t`.
        mutating func send(x: UInt16, y: UInt16, at t: UInt64) {
            let wire = OffsetsFrame(sequence: sequence, viewportX: x, viewportY: y, ribbonX: 250, ribbonBottom: 15, flags: []).encoded()
            sequence &+= 1
            receive(wire, at: t)
        }

        /// View k at `start` + k ms for k < 1000, each run to its next; the frames the glass showed meanwhile.
        mutating func sendAViewEveryMillisecondForASecond(from start: UInt64) -> UInt64 {
            let before = pipe.framesShown
            for k in 0..<1000 {
                let t = start + UInt64(k) * 1000
                send(x: UInt16(k % 384), y: UInt16(k % 192), at: t)
                run(until: t + 999)
            }
            return pipe.framesShown - before
        }

        /// Host bytes reaching the firmware at `t`, through the board's receiver.
        mutating func receive(_ wire: [UInt8], at t: UInt64) {
            var firmware = self.firmware
            wire.withUnsafeBytes { bytes in input.receive(bytes) { firmware.handle($0, nowMicros: t) { _ in } } }
            self.firmware = firmware
        }
    }

    static func rendered(x: UInt16, y: UInt16) -> [UInt8] {
        var screen = Screen()
        renderer.render(viewportX: x, viewportY: y, ribbonX: 250, ribbonBottom: 15, into: &screen)
        return screen.bytes
    }

    @Test func theStatusScreenAndAViewTakeAFramesBusTime() {
        var rig = Rig(rateHz: 100)
        #expect(rig.pipe.framesShown == 1 && rig.pipe.glassShowsStatus)
        #expect(rig.pipe.glass == NativeFirmware.statusScreen(version: (1, 0, 0), sensorOK: true).bytes)
        let t0: UInt64 = 100_000
        rig.send(x: 40, y: 20, at: t0)
        rig.run(until: t0 + Self.frameMicros - 1)
        #expect(rig.pipe.framesShown == 1, "a whole frame in less than its bytes' bus time")
        #expect(rig.pipe.glass != Self.rendered(x: 40, y: 20))
        // At most four samples fall in the frame (one every 10 ms); each takes
        // the bus for its poll window (100 µs) and read (600 µs), and may leave
        // unused the gap before it that a shortest piece (8 bytes + 3) cannot fill.
        let perSample: UInt64 = 100 + 600 + 11 * 23_300 / 1000
        rig.run(until: t0 + Self.frameMicros + 4 * perSample)
        #expect(rig.pipe.framesShown == 2)
        #expect(rig.pipe.glass == Self.rendered(x: 40, y: 20))
        #expect(!rig.pipe.glassShowsStatus && rig.pipe.isIdle)
    }

    /// A new view every millisecond for one second at 100 Hz: the glass
    /// changes as fast as its bus allows, less the sensor's share, and ends on
    /// the last view.
    /// After DISPLAY set-clock 1 MHz (the board setting) the same second of
    /// views: a byte is nine SCL periods of 16 cycles, 9 µs, and the driver's
    /// 0.8 µs: 1057 bytes are 10.4 ms, at most 96 frames a second.
    @Test func atTheFasterClockStoredViewsComeAtThatBussPace() {
        var rig = Rig(rateHz: 100)
        rig.receive(DisplayFrame(setClock: .megahertz1).encoded(), at: 100_000)
        #expect(rig.firmware.parts.displayClock == .megahertz1)
        let frames = rig.sendAViewEveryMillisecondForASecond(from: 100_000)
        let limit = 1_000_000 / (1057 * 9_800 / 1000)  // 96
        #expect(frames <= limit && frames >= limit * 8 / 10, "\(frames) frames in a second at 1 MHz, bus limit \(limit)")
    }

    @Test func viewsComeAtTheBussPace() {
        var rig = Rig(rateHz: 100)
        let start: UInt64 = 100_000
        let frames = rig.sendAViewEveryMillisecondForASecond(from: start)
        let limit = 1_000_000 / Self.frameMicros  // 40
        #expect(frames <= limit && frames >= limit * 8 / 10, "\(frames) frames in a second, bus limit \(limit)")
        rig.run(until: start + 1_100_000)
        #expect(rig.pipe.glass == Self.rendered(x: 999 % 384, y: 999 % 192))
    }

    /// At 1 kHz the firmware reads every other sample while the glass draws
    /// (every one would take half the bus), so the sensor's share is a
    /// 600 µs read every 2 ms and the glass keeps at least the firmware's
    /// pace (20 frames/s, GlassStatsTests): reading every sample, the model
    /// drew 13.
    @Test func atOneKilohertzViewsComeAtTheFirmwaresPace() {
        var rig = Rig(rateHz: 1000)
        let frames = rig.sendAViewEveryMillisecondForASecond(from: 100_000)
        let share = Double(2_000 - 600 - 100) / 2_000  // the read and the poll window, every 2 ms
        let limit = 1_000_000 / Double(Self.frameMicros) * share
        print("native, 1 kHz: \(frames) frames in a second, the bus's share \(limit)")
        #expect(frames >= 20 && Double(frames) <= limit, "\(frames) frames in a second at 1 kHz, the bus's share \(limit)")
    }

    /// Frame sync: READY only after SYNC 1; while views keep coming, one
    /// frame READY per frame drawn; then the idle READY once the last view is drawn.
    @Test func readyFramesComeAsTheFirmwaresDo() {
        var rig = Rig(rateHz: 100)
        rig.send(x: 1, y: 1, at: 100_000)
        rig.run(until: 150_000)
        #expect(rig.readies.isEmpty)
        let sync = SyncFrame(enabled: true).encoded()
        rig.receive(sync, at: 150_000)
        rig.run(until: 150_001)
        #expect(rig.readies.count == 1 && rig.readies[0].idle)
        let framesBefore = rig.pipe.framesShown
        for k in 0..<300 {
            let t = 151_000 + UInt64(k) * 1000
            rig.send(x: UInt16(k + 2), y: 3, at: t)
            rig.run(until: t + 999)
        }
        rig.run(until: 600_000)
        let drawn = Int(rig.pipe.framesShown - framesBefore)
        let frameReadies = rig.readies.filter { !$0.idle }
        #expect(drawn >= 8)
        #expect(abs(frameReadies.count - drawn) <= 1, "\(frameReadies.count) frame READYs for \(drawn) frames")
        #expect(rig.readies.last?.idle == true)
        #expect(rig.pipe.glass == Self.rendered(x: 301, y: 3))
    }
}
