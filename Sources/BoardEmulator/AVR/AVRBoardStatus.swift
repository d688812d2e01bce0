/// What the board is doing, as seen from outside the simulation thread.
public enum AVRRunState: Sendable, Equatable {
    /// Built, `start()` not called yet.
    case idle
    /// Started, held in reset until a client first opens the pty (`holdInResetUntilOpened`).
    case waitingForHost
    /// Running firmware.
    case running
    /// Powered off by `unplug()`; `plugIn()` powers it on again.
    case unplugged
    /// The firmware stopped (crashed, or slept with interrupts off); `reset()` restarts it.
    case halted(String)
    /// `stop()` was called; the board is gone.
    case stopped
}

/// The SSD1306's memory and display state.
public struct AVRDisplayFrame: Sendable, Equatable {
    /// 8 pages × 128 columns, page-major; bit 0 of a byte is the page's top row.
    public var vram: [UInt8]
    /// Display on (0xAF) or asleep (0xAE).
    public var isOn: Bool
    /// Inverse video (0xA7).
    public var isInverted: Bool
    /// Contrast register (0x81 command).
    public var contrast: UInt8
    /// Column 127 drives SEG0 (0xA1; 0xA0 is the reset value). With 0xC8 too,
    /// this is the usual module orientation, in which VRAM reads upright.
    public var isSegmentRemapped: Bool
    /// COM scan reversed (0xC8; 0xC0 is the reset value).
    public var isComScanReversed: Bool

    public static let byteCount = 1024

    public init(vram: [UInt8] = [UInt8](repeating: 0, count: byteCount), isOn: Bool = false,
                isInverted: Bool = false, contrast: UInt8 = 0x7F,
                isSegmentRemapped: Bool = false, isComScanReversed: Bool = false) {
        self.vram = vram
        self.isOn = isOn
        self.isInverted = isInverted
        self.contrast = contrast
        self.isSegmentRemapped = isSegmentRemapped
        self.isComScanReversed = isComScanReversed
    }

    /// The pixel at column `x` (0...127), row `y` (0...63), as stored in VRAM.
    public func pixel(x: Int, y: Int) -> Bool {
        vram[(y >> 3) * 128 + x] & (1 << (y & 7)) != 0
    }
}

/// A consistent snapshot of the board, published by the simulation thread.
public struct AVRBoardStatus: Sendable {
    public var state: AVRRunState
    /// The pty slave a client opens (changes on each `plugIn()`); nil while unplugged.
    public var serialPath: String?
    /// Simulated time since the board was made.
    public var simulatedMicros: UInt64
    /// The display, and how many times it changed.
    public var display: AVRDisplayFrame
    public var displayGeneration: UInt64
    /// MPU-6050 samples taken.
    public var sensorSamples: UInt64
    /// UART bytes each way, and bytes from the AVR dropped because no client read them.
    public var bytesFromAVR: UInt64
    public var bytesToAVR: UInt64
    public var droppedSerialOutput: UInt64
    /// A client has the pty open now.
    public var hostConnected = false
}

/// Simulated seconds per wall second over a stretch of running.
public struct AVRSpeedReport: Sendable, Equatable {
    public var simulatedSeconds: Double
    public var wallSeconds: Double
    public var ratio: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }
}
