import BoardEmulator
import Foundation
import TiltAssets
import TiltCore
import TiltMotion
import TiltPipeline
import TiltserialCommand
import TiltserialSettings
import WireProtocol

/// Motion to photon with the real host's logic in simulated time: our firmware
/// in simavr (`AVRMachine`, stepped), the tour motion, and tiltserial's own
/// `HostDriver` (session, physics, frame sync, doze) answering on the board's
/// UART in the same simulated clock. The host reads when its driver says it
/// would (`nextWait`: read the port, or doze) and answers `reactMicros` after
/// it reads, which is all that is modelled of the machine it runs on; so the
/// figures are exact and do not move with this machine's load, unlike
/// `glass`'s real-time run. docs/perf/render.md.
enum GlassSimRun {
    /// One line and one JSON object per (firmware, rate, doze on/off).
    static func runAll(firmwares: [(label: String, path: String)], rates: [Int], reactMicros: UInt64, dozes: [Bool]) {
        let art: TiltAssets.Art
        do { art = try TiltAssets.load() } catch {
            print("emulator-speed: cannot load the art: \(error)")
            exit(1)
        }
        let motion = Motion(.script(Scenarios.tour))
        print("tour \(motion.duration) s of board time per run, simulated; host reacts \(reactMicros) µs after it reads")
        for rate in rates {
            for doze in dozes {
                for firmware in firmwares {
                    guard let (stats, wakes) = run(firmware: firmware.path, rateHz: rate, art: art, motion: motion,
                                                   reactMicros: reactMicros, doze: doze) else { continue }
                    let label = "\(firmware.label) \(rate) Hz, doze \(doze ? "on" : "off")"
                    print("\(label): \(stats.line); host reads \(wakes)")
                    print("json {\"firmware\":\"\(firmware.label)\",\"rateHz\":\(rate),\"doze\":\(doze),\"reads\":\(wakes),\"stats\":\(stats.json)}")
                }
            }
        }
    }

    /// The tour once; returns the glass stats and how many times the host read the port.
    static func run(firmware: String, rateHz: Int, art: TiltAssets.Art, motion: Motion,
                    reactMicros: UInt64, doze: Bool) -> (GlassStats, Int)? {
        let machine: AVRMachine
        do {
            machine = try AVRMachine(.init(firmwarePath: firmware, motionSource: StartOnFirstSample(motion)))
        } catch {
            print("emulator-speed: \(error)")
            return nil
        }
        var settings = HostSettings()
        settings.physics.mode = .smooth
        var configuration = HostDriver.Configuration()
        configuration.dozeMarginMicros = doze ? configuration.dozeMarginMicros : nil
        configuration.dozeBufferBytes = HostDriver.Configuration.pseudoTerminalDozeBufferBytes
        let session: HostSession
        do { session = try makeHostSession(settings: settings, art: art) } catch {
            print("emulator-speed: \(error)")
            return nil
        }
        var driver = HostDriver(session: session, configuration: configuration)
        var outbox: [[UInt8]] = []  // written by the host, due at the board `reactMicros` later
        var dueAt: [UInt64] = []
        func perform(_ action: HostAction) {
            guard case .write(let write) = action else { return }
            outbox.append(bytes(write))
            dueAt.append(machine.simulatedMicros + reactMicros)
        }
        driver.portOpened(at: HostTime(micros: machine.simulatedMicros)) { perform($0) }
        if rateHz != 100 {
            _ = machine.sendSerial(ConfigureFrame(sampleRateHz: UInt16(rateHz), accelFullScaleSelect: 0, gyroFullScaleSelect: 0).encoded())
        }
        let step: UInt64 = 50
        var pending: [UInt8] = []
        var sleepUntil: UInt64 = 0
        var woke = false
        var reads = 0
        func read(_ at: HostTime) {
            reads += 1
            driver.received(pending, at: at) { perform($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let end = motion.loopMicros + 1_500_000
        var statsOn = false
        while machine.simulatedMicros < end {
            machine.run(untilMicros: machine.simulatedMicros + step)
            if !statsOn, machine.simulatedMicros >= 500_000 {  // after the rate change and the first HELLO
                machine.recordGlassStats(renderer: art.renderer)
                statsOn = true
            }
            let now = machine.simulatedMicros
            pending += machine.takeSerialOutput()
            while let first = dueAt.first, first <= now {
                _ = machine.sendSerial(outbox.removeFirst())
                dueAt.removeFirst()
            }
            if now < sleepUntil { continue }  // dozing: the port is left unread
            let at = HostTime(micros: now)
            if woke {  // after a doze the runner reads at once (HostRunner.readAfterDoze)
                woke = false
                if !pending.isEmpty { read(at) }
                driver.timePassed(at: at) { perform($0) }
                continue
            }
            switch driver.nextWait(at: at) {
            case .done:
                return nil
            case .sleep(let until):
                if until.micros > now {
                    sleepUntil = until.micros
                    woke = true
                } else {
                    driver.timePassed(at: at) { perform($0) }
                }
            case .port(let until):
                if !pending.isEmpty {
                    read(at)
                } else if now >= until.micros {
                    driver.timePassed(at: at) { perform($0) }
                }
            }
        }
        guard let stats = machine.glassStats else { return nil }
        return (stats, reads)
    }

    static func bytes(_ write: HostWrite) -> [UInt8] {
        switch write {
        case .hostHello: HostHelloFrame().encoded()
        case .sync: SyncFrame(enabled: true).encoded()
        case .describe: DescribeFrame().encoded()
        case .offsets(let wire): wire.withUnsafeBytes { Array($0) }
        case .scene(let wire): wire.withUnsafeBytes { Array($0) }
        }
    }
}
