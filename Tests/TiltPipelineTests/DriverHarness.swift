import TiltCore
import WireProtocol
@testable import TiltPipeline

/// A board on the far side of a simulated serial link: frames scheduled at
/// host times, a kernel queue of bounded size (a pty holds about 4 KiB) that
/// drops what arrives while it is full, and times at which the device vanishes
/// and can be opened again. Time is virtual: nothing here reads a clock.
struct VirtualLink {
    /// Bytes the device sends, each arriving in the queue at its host time (sorted).
    var arrivals: [(at: UInt64, bytes: [UInt8])] = []
    var nextArrival = 0
    /// Arrived, not yet read.
    var queue: [UInt8] = []
    var capacity = 4096
    /// Bytes that arrived while the queue was full.
    var dropped = 0
    /// The device vanishes at this time...
    var goneAt: UInt64 = .max
    /// ...and opens again from this time on.
    var backAt: UInt64 = .max
    var isOpen = true

    mutating func schedule(_ bytes: [UInt8], at time: UInt64) {
        arrivals.append((time, bytes))
    }

    /// Everything due by `time` lands in the queue (or is dropped when it is full).
    mutating func advance(to time: UInt64) {
        while nextArrival < arrivals.count && arrivals[nextArrival].at <= time {
            if isOpen && time < goneAt {
                for byte in arrivals[nextArrival].bytes {
                    if queue.count < capacity { queue.append(byte) } else { dropped += 1 }
                }
            }
            nextArrival += 1
        }
    }

    var nextArrivalTime: UInt64 { nextArrival < arrivals.count ? arrivals[nextArrival].at : .max }
}

/// Drives a `HostDriver` as `HostRunner` does, in virtual time: EmbeddedChannel
/// for the host loop. Every action is kept for the test to inspect.
struct DriverHarness {
    var driver: HostDriver
    var link = VirtualLink()
    /// Virtual host time, µs (the link's timeline); the driver sees it as `now`.
    var clock: UInt64 = 0
    var now: HostTime { HostTime(micros: clock) }
    var actions: [(at: UInt64, action: HostAction)] = []
    /// Bytes the host wrote, decoded.
    var written: [(at: UInt64, frame: Frame)] = []
    var decoder = FrameDecoder()
    var openAttempts: [UInt64] = []
    /// Host waits: how often the loop woke, and how often it left the port unread.
    var wakeUps = 0
    var dozes = 0
    /// Host times at which queued bytes were read.
    var reads: [UInt64] = []
    var longestSleep: UInt64 = 0
    /// How late each doze ends, µs (a machine's timer slack and idle CPU).
    var dozeLateness: UInt64 = 0
    var maxQueue = 0
    var ending: HostEnding?

    init(configuration: HostDriver.Configuration = HostDriver.Configuration(), session: HostSession = Fixture.session()) {
        driver = HostDriver(session: session, configuration: configuration)
    }

    var news: [HostNews] { actions.compactMap { if case .news(let n) = $0.action { n } else { nil } } }
    var hostHellos: [UInt64] { written.compactMap { if case .hostHello = $0.frame { $0.at } else { nil } } }
    var offsets: [OffsetsFrame] { written.compactMap { if case .offsets(let o) = $0.frame { o } else { nil } } }

    mutating func start() {
        let at = now
        feed { $0.portOpened(at: at, $1) }
    }

    mutating func timePassed() { let at = now; feed { $0.timePassed(at: at, $1) } }
    mutating func portGone() { let at = now; feed { $0.portGone(at: at, $1) } }
    mutating func portOpenFailed() { let at = now; feed { $0.portOpenFailed(at: at, $1) } }

    /// Calls the driver, then performs what it emitted, in order.
    mutating func feed(_ call: (inout HostDriver, (HostAction) -> Void) -> Void) {
        var emitted: [HostAction] = []
        call(&driver) { emitted.append($0) }
        for action in emitted { perform(action) }
    }

    /// Runs the loop until `time` or the end of the run.
    mutating func run(until time: UInt64) {
        while ending == nil && clock < time {
            wakeUps += 1
            switch driver.nextWait(at: now) {
            case .done:
                return
            case .doze(let until):
                dozes += 1
                longestSleep = max(longestSleep, until.micros &- clock)
                advance(to: min(max(until.micros + dozeLateness, clock), time))
                let at = now
                driver.dozeEnded(at: at)
                // As HostRunner does: after a doze, read what queued without polling first.
                if link.isOpen && clock < link.goneAt { readQueue() }
                timePassed()
            case .sleep(let until):
                longestSleep = max(longestSleep, until.micros &- clock)
                advance(to: min(max(until.micros, clock), time))
                timePassed()
            case .port(let until):
                if link.isOpen && clock >= link.goneAt {
                    portGone()
                    continue
                }
                var wake = min(until.micros, time)
                if link.isOpen && link.queue.isEmpty { wake = min(wake, max(link.nextArrivalTime, clock), link.goneAt) }
                if !link.queue.isEmpty { wake = clock }
                advance(to: max(wake, clock))
                if link.isOpen && clock >= link.goneAt { continue }
                readQueue()
                timePassed()
            }
        }
    }

    /// Reads everything queued, as the runner's drain does.
    mutating func readQueue() {
        if !link.queue.isEmpty { reads.append(clock) }
        while !link.queue.isEmpty {
            // A pty hands out at most 4095 bytes a read.
            let chunk = Array(link.queue.prefix(4095))
            link.queue.removeFirst(chunk.count)
            let at = now
            feed { $0.received(chunk, at: at, $1) }
        }
    }

    mutating func advance(to time: UInt64) {
        clock = max(clock, time)
        link.advance(to: clock)
        maxQueue = max(maxQueue, link.queue.count)
    }

    mutating func perform(_ action: HostAction) {
        actions.append((clock, action))
        switch action {
        case .write(let what):
            precondition(link.isOpen, "the driver wrote to a closed port")
            let bytes = switch what {
            case .hostHello: HostHelloFrame().encoded()
            case .sync: SyncFrame(enabled: true).encoded()
            case .describe: DescribeFrame().encoded()
            case .offsets(let wire): wire.bytes
            case .scene(let wire): wire.bytes
            }
            let at = clock
            var frames: [Frame] = []
            decoder.feed(bytes) { frames.append($0) }
            written += frames.map { (at, $0) }
        case .openPort:
            // As HostRunner does: the driver call returned, so the answer goes straight back.
            open()
        case .closePort:
            link.isOpen = false
            link.queue.removeAll()
        case .finish(let ending):
            self.ending = ending
        default:
            break
        }
    }

    mutating func open() {
        openAttempts.append(clock)
        if clock >= link.backAt {
            link.isOpen = true
            link.goneAt = .max
            let at = now
            feed { $0.portOpened(at: at, verified: false, $1) }
        } else {
            portOpenFailed()
        }
    }
}

/// Board streams for the harness.
enum BoardStream {
    /// HELLO, then SAMPLEs at `rateHz` of board time from `boardStart`, arriving
    /// at host time `hostStart` + board elapsed / `speed` (speed > 1: the board's
    /// clock runs fast against the host's, like a free-running emulator).
    static func samples(
        rateHz: UInt64, seconds: Double, hostStart: UInt64 = 1_000, boardStart: UInt32 = 5_000,
        firstSequence: Int = 0, speed: Double = 1, hello: Bool = true, announced: UInt16? = nil
    ) -> [(UInt64, [UInt8])] {
        var out: [(UInt64, [UInt8])] = []
        if hello { out.append((hostStart, Fixture.hello(rate: announced ?? UInt16(min(rateHz, 65535))).encoded())) }
        let count = Int(Double(rateHz) * seconds)
        let period = 1_000_000 / rateHz
        for i in 0..<count {
            let boardElapsed = UInt64(i) * period
            let time = boardStart &+ UInt32(truncatingIfNeeded: boardElapsed)
            var wire: [UInt8] = []
            SampleFrame(sequence: UInt8(truncatingIfNeeded: firstSequence + i), boardTime: time, raw: Fixture.raw(i)).encode(into: &wire)
            out.append((hostStart + 100 + UInt64(Double(boardElapsed) / speed), wire))
        }
        return out
    }
}
