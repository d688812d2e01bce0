import Testing
import TiltCore
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

/// PARTS on the host (docs/protocol.md, "PARTS and DESCRIBE"): every HELLO is
/// answered with DESCRIBE, in either physics mode, and the board's PARTS comes
/// out as an event; a driver told not to ask writes nothing for it.
@Suite struct PartsSessionTests {
    @Test func everyHelloIsAskedWhichPartsTheBoardFound() {
        for mode in IntegratorMode.allCases {
            var settings = PhysicsSettings()
            settings.mode = mode
            var session = Fixture.session(settings)
            var out = Outbox()
            out.feed(&session, Fixture.hello().encoded() + Fixture.hello().encoded())
            #expect(out.events.filter { $0 == .describeParts }.count == 2, "\(mode)")
        }
        var actions: [HostAction] = []
        HostDriver.forward(.describeParts) { actions.append($0) }
        #expect(actions == [.write(.describe)])
    }

    @Test func theBoardsPartsComeOutAsAnEventAndReadForPeople() {
        var session = Fixture.session()
        var out = Outbox()
        let parts = PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x98, displayAddress: 0x3D)
        out.feed(&session, Fixture.hello().encoded() + parts.encoded())
        #expect(out.events.contains(.parts(parts)))
        #expect(parts.summary == "sensor MPU-6500 family (WHO_AM_I 0x98) at 0x68, display SSD1306 128x64 at 0x3D")
        // A hostile or foreign board's 0xFF is named for what it is, not as a place on the bus.
        let odd = PartsFrame(sensorAddress: 0xFF, sensorWhoAmI: 0xFF, displayAddress: 0xFF, displayKind: 0xFF, flags: 0)
        #expect(odd.summary.hasPrefix("sensor MPU-6500 family (WHO_AM_I 0xFF) at 0xFF (not a 7-bit I2C address: is this our sketch?), "
                                      + "display unknown kind 255 at 0xFF (not a 7-bit I2C address: is this our sketch?)"), "\(odd.summary)")
        #expect(PartsFrame(sensorAddress: 0, sensorWhoAmI: 0, displayAddress: 0x3C).summary
                == "no sensor, display SSD1306 128x64 at 0x3C")
        #expect(PartsFrame(sensorAddress: 0x69, sensorWhoAmI: 0x70, displayAddress: 0).summary
                == "sensor MPU-6500 (WHO_AM_I 0x70) at 0x69, no display")
        #expect(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, displayKind: 1).summary
                == "sensor MPU-6050 (WHO_AM_I 0x68) at 0x68, display SH1106 128x64 at 0x3C")
        #expect(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3D, displayKind: 2).displayName == "SSD1306 128x32")
        #expect(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3D, displayKind: 7).summary
                == "sensor MPU-6050 (WHO_AM_I 0x68) at 0x68, display unknown kind 7 at 0x3D")
        // Flags bits 2–3: the display's clock, named when it is not 400 kHz (docs/protocol.md, PARTS).
        #expect(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, flags: 0x01 | 1 << 2).summary
                == "sensor MPU-6050 (WHO_AM_I 0x68) at 0x68, display SSD1306 128x64 at 0x3C, 800 kHz (set by tiltserial setup)")
        #expect(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, flags: 2 << 2).displayClock == .megahertz1)
        #expect(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, flags: 0x03).displayClock == .kilohertz400)
        // 3: 100 kHz, where the board goes when the display answers no faster (bit 4 says it fell back).
        let slow = PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, flags: 0x10 | 3 << 2)
        #expect(slow.summary == "sensor MPU-6050 (WHO_AM_I 0x68) at 0x68, display SSD1306 128x64 at 0x3C, 100 kHz")
        #expect(slow.displayClock == .kilohertz100 && slow.clockFellBack)
    }

    @Test func aDriverToldNotToAskWritesNoDescribe() {
        for ask in [true, false] {
            var configuration = HostDriver.Configuration()
            configuration.askForParts = ask
            configuration.sendHostHello = false
            var h = DriverHarness(configuration: configuration)
            h.start()
            h.link.schedule(Fixture.hello().encoded(), at: 1000)
            h.run(until: 10_000)
            let describes = h.actions.filter { $0.action == .write(.describe) }.count
            #expect(describes == (ask ? 1 : 0))
        }
    }
}
