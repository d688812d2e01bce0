import TiltAssets

extension NativeBoard {
    /// What to build: sample rate, pace, pty link, motion, faults, output buffer, firmware version, art.
    public struct Configuration: Sendable {
        /// SAMPLE frames per second at power-on (1…65535; the period is rounded to whole µs).
        public var sampleRateHz: Int
        /// Real time, a speed factor, or free-running (as fast as the reader reads).
        public var pace: BoardPace
        /// A symlink kept pointing at the current pty (follows replugs).
        public var linkPath: String?
        /// What the sensor feels; asked at board lifetime µs.
        public var motionSource: any MotionSource
        /// Transmission faults to inject (`.none`: a clean line).
        public var faults: FaultSpec
        /// Stop sampling after this many samples since the last power-on/reset (finite runs, tests).
        public var sampleLimit: UInt64?
        /// Bytes the board queues for the wire before it drops SAMPLE frames (paced)
        /// or waits for the reader (free-running), like a UART TX buffer plus adapter.
        public var outputBufferBytes: Int
        /// Firmware version reported in HELLO.
        public var firmwareVersion: (major: UInt8, minor: UInt8, patch: UInt8)
        /// The art the screen is drawn with; nil = the shipped assets.
        public var art: TiltAssets.Art?
        /// Stay off (no HELLO, board time not running) until a host first opens
        /// the pty, as an Uno reset by its port opening is seen to start then.
        public var holdUntilOpened = false
        /// Power on again whenever a host opens the pty, as the DTR pulse resets
        /// an Uno: the host's first bytes are the boot HELLO, and what the board
        /// sent while no host had the port open is dropped (counted), as a USB
        /// serial adapter drops it. Without it the board's output queues while
        /// no host reads (in the kernel once a host has opened the pty), and a
        /// host that comes back reads it.
        public var resetOnConnect = false

        /// A board at 100 Hz, real time, at rest, with a 4096-byte output buffer and firmware 1.0.0 unless told.
        public init(sampleRateHz: Int = 100, pace: BoardPace = .realTime, linkPath: String? = nil,
                    motionSource: any MotionSource = Motion(.script(Scenarios.rest)), faults: FaultSpec = .none,
                    sampleLimit: UInt64? = nil, outputBufferBytes: Int = 4096,
                    firmwareVersion: (major: UInt8, minor: UInt8, patch: UInt8) = (1, 0, 0),
                    art: TiltAssets.Art? = nil) {
            self.sampleRateHz = sampleRateHz
            self.pace = pace
            self.linkPath = linkPath
            self.motionSource = motionSource
            self.faults = faults
            self.sampleLimit = sampleLimit
            self.outputBufferBytes = outputBufferBytes
            self.firmwareVersion = firmwareVersion
            self.art = art
        }
    }
}
