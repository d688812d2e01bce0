import TiltDisplay

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

/// The SSD1306: its display RAM as stored, its registers, and what the glass shows.
public struct AVRDisplayFrame: Sendable, Equatable {
    /// GDDRAM as stored: 8 pages × 128 columns, page-major; bit 0 of a byte is
    /// the page's top row. Hardware scrolling rotates it, like the part does.
    public var vram: [UInt8]
    /// The registers that shape the picture (addressing, remaps, scroll, contrast…).
    public var registers: SSD1306Registers

    /// GDDRAM's size: 8 pages × 128 columns, one byte each (128 × 64 pixels).
    public static let byteCount = 1024

    /// A display with the given RAM (default: all dark) and registers (default: the datasheet's reset values).
    public init(vram: [UInt8] = [UInt8](repeating: 0, count: byteCount), registers: SSD1306Registers = SSD1306Registers()) {
        self.vram = vram
        self.registers = registers
    }

    /// What the glass shows (`SSD1306Glass`): dark while the display is off or
    /// the charge pump is off; inverted, remapped, offset, scrolled as the
    /// registers say. Equal to `vram` for our firmware's settings. Computed
    /// when asked (the simulation thread publishes every millisecond).
    public var glass: Screen { SSD1306Glass.screen(gddram: vram, registers: registers) }

    /// Display on (0xAF) or asleep (0xAE).
    public var isOn: Bool { registers.displayOn }
    /// Inverse video (0xA7).
    public var isInverted: Bool { registers.inverse }
    /// Contrast register (0x81 command).
    public var contrast: UInt8 { registers.contrast }
    /// Column 127 drives SEG0 (0xA1; 0xA0 is the reset value). With 0xC8 too,
    /// this is the usual module orientation, in which VRAM reads upright.
    public var isSegmentRemapped: Bool { registers.segmentRemap }
    /// COM scan reversed (0xC8; 0xC0 is the reset value).
    public var isComScanReversed: Bool { registers.comReversed }
    /// Gray level of a lit pixel on the glass (from the contrast); 0 while the panel is dark.
    public var brightness: UInt8 { registers.isLit ? SSD1306Glass.brightness(contrast: registers.contrast) : 0 }

    /// The pixel at column `x` (0...127), row `y` (0...63), as stored in VRAM.
    public func pixel(x: Int, y: Int) -> Bool {
        vram[(y >> 3) * 128 + x] & (1 << (y & 7)) != 0
    }
}

/// A consistent snapshot of the board, published by the simulation thread.
public struct AVRBoardStatus: Sendable {
    /// Built, waiting, running, unplugged, halted or stopped.
    public var state: AVRRunState
    /// The pty slave a client opens (changes on each `plugIn()`); nil while unplugged.
    public var serialPath: String?
    /// Simulated time since the board was made.
    public var simulatedMicros: UInt64
    /// The display, and how many times it changed.
    public var display: AVRDisplayFrame
    /// Grows by one whenever `display` changes (to redraw only then).
    public var displayGeneration: UInt64
    /// Displays captured at exact board times (`AVRBoard.captureDisplay(atBoardMicros:)`).
    public var displayCaptures: [UInt64: AVRDisplayFrame] = [:]
    /// MPU-6050 samples taken.
    public var sensorSamples: UInt64
    /// CPU cycles the I2C bus has been busy since power-on (to see whether the firmware sends anything).
    public var busCycles: UInt64 = 0
    /// UART bytes each way, and bytes from the AVR dropped because no client read them.
    public var bytesFromAVR: UInt64
    /// UART bytes the host sent the firmware, since the board was made.
    public var bytesToAVR: UInt64
    /// UART bytes the firmware sent while no client had the pty open, dropped.
    public var droppedSerialOutput: UInt64
    /// The host's end of the pty and the sketch's Serial at different baud
    /// rates (each reads the other's bytes as garbage); nil when they agree.
    public var baudMismatch: BaudMismatch?
    /// A client has the pty open now.
    public var hostConnected = false
}

/// A host and a sketch at baud rates a UART cannot bridge (`UARTResampler`).
public struct BaudMismatch: Hashable, Sendable {
    /// What the host set on its end of the pty.
    public var host: Int
    /// What the sketch's UBRR says, as the standard rate it stands for.
    public var sketch: Int
}
