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
    static func runAll(firmwares: [(label: String, path: String)], board: ArduinoBoard, rates: [Int], reactMicros: UInt64,
                       dozes: [Bool]) {
        let art: TiltAssets.Art
        do { art = try TiltAssets.load() } catch {
            print("emulator-speed: cannot load the art: \(error)")
            exit(1)
        }
        let motion = Motion(.script(Scenarios.tour))
        print("tour \(motion.duration) s of board time per run on the \(board.title), simulated; host reacts \(reactMicros) µs after it reads")
        for rate in rates {
            for doze in dozes {
                for firmware in firmwares {
                    guard let stats = run(firmware: firmware.path, board: board, rateHz: rate, art: art, motion: motion,
                                                   reactMicros: reactMicros, doze: doze) else { continue }
                    let label = "\(firmware.label) \(rate) Hz, doze \(doze ? "on" : "off")"
                    print("\(label): \(stats.line)")
                    print("json {\"firmware\":\"\(firmware.label)\",\"rateHz\":\(rate),\"doze\":\(doze),\"stats\":\(stats.json)}")
                }
            }
        }
    }

    /// The tour once; returns the glass stats.
    static func run(firmware: String, board: ArduinoBoard, rateHz: Int, art: TiltAssets.Art, motion: Motion,
                    reactMicros: UInt64, doze: Bool) -> GlassStats? {
        let machine: AVRMachine
        do {
            var configuration = AVRMachine.Configuration(firmwarePath: firmware, motionSource: StartOnFirstSample(motion))
            configuration.configure(for: board)
            // CONTROLLER=sh1106 or ssd1306-128x32: the display module (tiltsim --display).
            if let part = ProcessInfo.processInfo.environment["CONTROLLER"].flatMap(EmulatedDisplay.init(rawValue:)) {
                configuration.display = part
            }
            machine = try AVRMachine(configuration)
        } catch {
            print("emulator-speed: \(error)")
            return nil
        }
        var settings = HostSettings()
        settings.physics.mode = .smooth
        var configuration = HostDriver.Configuration()
        configuration.dozeMarginMicros = doze ? configuration.dozeMarginMicros : nil
        configuration.dozeBufferBytes = HostDriver.Configuration.pseudoTerminalDozeBufferBytes
        if let rate = ProcessInfo.processInfo.environment["LINE_BPS"].flatMap(UInt64.init) { configuration.lineBytesPerSecond = rate }
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
            outbox.append(write.wire.bytes)
            dueAt.append(machine.simulatedMicros + reactMicros)
        }
        driver.portOpened(at: HostTime(micros: machine.simulatedMicros)) { perform($0) }
        if rateHz != 100 {
            _ = machine.sendSerial(ConfigureFrame(sampleRateHz: UInt16(rateHz), accelFullScaleSelect: 0, gyroFullScaleSelect: 0).encoded())
        }
        // DISPLAY_CLOCK=800k or 1m: the board setting `tiltserial setup --display-clock` stores.
        if let name = ProcessInfo.processInfo.environment["DISPLAY_CLOCK"],
           let clock = DisplayClock.allCases.first(where: { $0.name == name }) {
            _ = machine.sendSerial(DisplayFrame(setClock: clock).encoded())
        }
        let step: UInt64 = 50
        var pending: [UInt8] = []
        var sleepUntil: UInt64 = 0
        var woke = false
        var readies = FrameDecoder()  // READY frames the board sent: frame sync at work
        var readyCount = 0
        var leads: [Int64] = []  // a READY's latch less the board time it left the UART
        func read(_ at: HostTime) {
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
            let output = machine.takeSerialOutput()
            readies.feed(output) {
                guard case .ready(let ready) = $0 else { return }
                readyCount += 1
                if !ready.idle { leads.append((Int64((ready.boardTime &- UInt32(truncatingIfNeeded: now)) & 0xFF_FFFF) << 40) >> 40) }
            }
            pending += output
            while let first = dueAt.first, first <= now {
                _ = machine.sendSerial(outbox.removeFirst())
                dueAt.removeFirst()
            }
            if now < sleepUntil { continue }  // dozing: the port is left unread
            let at = HostTime(micros: now)
            if woke {  // after a doze the runner reads at once (HostRunner.readAfterDoze)
                woke = false
                driver.dozeEnded(at: at)  // on time here: simulated time has no late wake-ups
                if !pending.isEmpty { read(at) }
                driver.timePassed(at: at) { perform($0) }
                continue
            }
            switch driver.nextWait(at: at) {
            case .done:
                return nil
            case .doze(let until), .sleep(let until):
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
        let stats = machine.glassStats
        // Where motion to photon goes: the sample's age when the host's view
        // began on the line (host side), and that view's end to the glass (board side).
        func percentiles(_ values: [UInt64]) -> String {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return "-" }
            return [50, 95].map { String(format: "%.1f", Double(sorted[min(sorted.count - 1, sorted.count * $0 / 100)]) / 1000) }.joined(separator: " / ")
        }
        let measured = stats?.measured ?? []
        let hostSide = measured.compactMap { f in f.sampleMicros.map { f.offsetsStartMicros - $0 } }
        let boardSide = measured.map { $0.photonMicros - $0.offsetsEndMicros }
        let sortedLeads = leads.sorted()
        if !sortedLeads.isEmpty { print("  READY lead as received: p5 \(sortedLeads[sortedLeads.count / 20]) p50 \(sortedLeads[sortedLeads.count / 2]) p95 \(sortedLeads[sortedLeads.count * 19 / 20]) µs") }
        print("  (\(readyCount) READY frames; p50 / p95: sample to its view on the line \(percentiles(hostSide)) ms, the view's end to the glass \(percentiles(boardSide)) ms)")
        return stats
    }
}
