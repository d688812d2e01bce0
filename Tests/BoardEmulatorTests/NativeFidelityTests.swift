@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltDisplay
import WireProtocol

/// The native board against the real firmware in simavr: same HELLO, same
/// waiting screen, same screen for the same OFFSETS. Fails, naming `make -C
/// Hardware`, if the firmware is not built.
struct NativeFidelityTests {
    @Test func sameHelloWaitingScreenAndDrawnScreensAsTheFirmware() throws {
        let avr = try AVRBoard(.init(firmwarePath: BuiltFirmware.tiltserial(), pace: .realTime, motionSource: ConstantMotionSource.faceUp))
        let native = try NativeBoard(.test(rate: 100, pace: .realTime, motion: ConstantMotionSource.faceUp))
        let avrHost = try PtyPeer(opening: try #require(avr.serialPath))
        let nativeHost = try PtyPeer(opening: try #require(native.serialPath))
        avr.start()
        native.start()
        defer {
            avr.stop()
            native.stop()
        }
        let waiting = try #require(native.waitFor(timeout: .seconds(10)) { $0.glassFrames >= 1 }).screen
        #expect(avr.waitFor(timeout: .seconds(10)) { Screen(bytes: $0.display.vram) == waiting } != nil)
        #expect(avr.displayedBrightness == native.displayedBrightness, "the firmware's contrast, as both glasses show it")
        #expect(avr.displayFrame.registers.contrast == NativeBoard.firmwareContrast)

        for host in [avrHost, nativeHost] {
            try host.send(HostHelloFrame())
            #expect(try host.read(timeout: .seconds(10)) { !$0.hellos.isEmpty && $0.samples.count >= 2 })
        }
        #expect(avrHost.hellos.last == nativeHost.hellos.last)

        let views: [(UInt16, UInt16, UInt16, UInt16)] = [(0, 0, 250, 15), (193, 0, 250, 30), (384, 192, 250, 15), (101, 37, 3, 0)]
        for (sequence, view) in views.enumerated() {
            let offsets = OffsetsFrame(sequence: UInt8(sequence), viewportX: view.0, viewportY: view.1,
                                       ribbonX: view.2, ribbonBottom: view.3, flags: [])
            try avrHost.send(offsets)
            try nativeHost.send(offsets)
            let drawn = try #require(native.waitFor(timeout: .seconds(5)) { $0.lastOffsets == offsets && $0.displayIdle }).screen
            #expect(drawn != waiting)
            #expect(avr.waitFor(timeout: .seconds(5)) { Screen(bytes: $0.display.vram) == drawn } != nil, "view \(view)")
        }
    }
}
