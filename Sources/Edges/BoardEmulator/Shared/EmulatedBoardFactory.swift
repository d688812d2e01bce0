import Foundation

/// Makes a board of either engine from one description, falling back from avr
/// to native when no default firmware is found or simavr refuses it. `tiltsim`
/// and demos share this. It builds nothing: the Makefile builds the firmware.
public struct EmulatedBoardFactory: Sendable {
    /// Which board model runs: the real firmware in simavr, or the Swift model of it.
    public enum Engine: String, Sendable, CaseIterable {
        /// simavr running the firmware ELF; the Swift `NativeBoard`.
        case avr, native
    }

    /// The engine asked for; avr falls back to native when no firmware can be found.
    public var engine: Engine = .avr
    /// nil: `FirmwareLocation.find()` (the installed one, else the source
    /// tree's above the executable); a given path that is missing is an error.
    public var firmwarePath: String?
    /// How simulated time keeps up with the wall clock.
    public var pace: BoardPace = .realTime
    /// The motion's path (script or recording); noise is added per board at its sample rate.
    public var motion: Motion.Path = .script(Scenarios.rest)
    /// Noise, times the datasheet density (0 = none).
    public var noiseScale: Double = 1
    /// Native only.
    public var sampleRateHz: Int = 100
    /// Transmission faults to inject (native only; none by default).
    public var faults: FaultSpec = .none
    /// Repeat the motion instead of holding its last pose.
    public var loopMotion = false
    /// Keep the board off (avr: held in reset) until a host first opens its pty,
    /// so the host sees the boot output and the motion from its start.
    public var holdUntilOpened = false
    /// avr only: the parts' wiring (`AVRBoard.Configuration`'s defaults: the
    /// MPU-6050 at 0x68 with INT on D2, the SSD1306 at 0x3C). The MPU-6050's
    /// I2C address: 0x68, or 0x69 with AD0 high; nil: no sensor on the bus.
    public var sensorAddress: UInt8? = 0x68
    /// The GPIO the MPU-6050's INT pin drives (by default where the board's
    /// sketches expect it: D2, or D7 on a Leonardo or Micro).
    public var sensorInterrupt: InterruptWiring = .boardDefault
    /// The SSD1306's I2C address: 0x3C, or 0x3D with its address pin high.
    public var displayAddress: UInt8 = 0x3C
    /// The sensor's WHO_AM_I (AVR only): 0x68 an MPU-6050, others the MPU-6500 family and look-alikes.
    public var sensorWhoAmI: UInt8 = 0x68
    /// The display's controller (AVR only): an SSD1306, or the SH1106 of 1.3" modules.
    public var display: EmulatedDisplay = .ssd1306
    /// The fastest I2C clock the display answers at, Hz (AVR only); nil: any.
    public var displayMaxClockHz: UInt32?
    /// avr only: the Arduino board whose build of the firmware runs (Hardware/boards.mk's
    /// names): uno or nano on an ATmega328P, mega on an ATmega2560, leonardo
    /// or micro on an ATmega32U4.
    public var board = "uno"
    /// The options that need the firmware ("--board mega"), when some were
    /// given: then a missing firmware stops, naming them, instead of the
    /// native engine (an Uno without parts) taking over.
    public var firmwareNeededBy: String?

    /// A description of one board; every value has the default `tiltsim` uses without options.
    public init(engine: Engine = .avr, firmwarePath: String? = nil, pace: BoardPace = .realTime,
                motion: Motion.Path = .script(Scenarios.rest), noiseScale: Double = 1,
                sampleRateHz: Int = 100, faults: FaultSpec = .none,
                loopMotion: Bool = false, holdUntilOpened: Bool = false) {
        self.engine = engine
        self.firmwarePath = firmwarePath
        self.pace = pace
        self.motion = motion
        self.noiseScale = noiseScale
        self.sampleRateHz = sampleRateHz
        self.faults = faults
        self.loopMotion = loopMotion
        self.holdUntilOpened = holdUntilOpened
    }

    /// Why no board could be made: one line naming the fix.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong: a firmware file that is missing, one that is not usable, or the system (pty, simavr).
        public enum Kind: Sendable {
            /// The firmware file is not there.
            case missingFile
            /// The firmware file is there but simavr cannot load it.
            case badFile
            /// Not the file's fault: the system refused (a pty, memory) or simavr failed.
            case system
        }
        /// The one line to print, naming the fix.
        public let description: String
        /// Which kind of failure, for the exit code.
        public let kind: Kind
    }

    /// The motion for board `index` sampling at `rateHz`.
    public func motionSource(rateHz: Double, index: Int = 0) -> Motion {
        Motion(motion, noise: noiseScale > 0
               ? SensorNoise(sampleRate: rateHz, seed: 0x5EED &+ UInt64(index), scale: noiseScale) : .none,
               loops: loopMotion)
    }

    /// Board `index` (its fault seed and noise seed are offset by it). `notice`
    /// receives a one-line message when avr falls back to native.
    public func makeBoard(index: Int = 0, linkPath: String? = nil,
                          notice: (String) -> Void = { _ in }) throws(Failure) -> any EmulatedBoard {
        if engine == .avr, let board = try makeAVR(linkPath: linkPath, notice: notice) { return board }
        var spec = faults
        spec.seed &+= UInt64(index)
        do {
            var configuration = NativeBoard.Configuration(
                sampleRateHz: sampleRateHz, pace: pace, linkPath: linkPath,
                motionSource: motionSource(rateHz: Double(sampleRateHz), index: index), faults: spec)
            configuration.holdUntilOpened = holdUntilOpened
            configuration.resetOnConnect = true  // an Uno's DTR: each host that opens the port sees it boot
            return try NativeBoard(configuration)
        } catch {
            throw Failure(description: error.description, kind: .system)
        }
    }

    private func makeAVR(linkPath: String?, notice: (String) -> Void) throws(Failure) -> AVRBoard? {
        let firmware: String
        if let firmwarePath {
            guard FileManager.default.fileExists(atPath: firmwarePath) else {
                throw Failure(description: "\(firmwarePath): no such firmware; build it with make -C Hardware or use the native engine",
                              kind: .missingFile)
            }
            firmware = firmwarePath
        } else if let found = FirmwareLocation.find(board: board) {
            firmware = found
        } else {
            let searched = FirmwareLocation.candidates(executable: FirmwareLocation.runningExecutable(), board: board)
            let make = "make -C Hardware" + (board == "uno" ? "" : " BOARD=\(board)") + " (or install it: make install)"
            if let options = firmwareNeededBy {
                throw Failure(description: "no firmware at \(searched.isEmpty ? FirmwareLocation.inSourceTree(board: board) : searched.joined(separator: " nor "))"
                              + "; build it with \(make): \(options) \(options.contains(" and ") ? "need" : "needs") it (the native engine is an Uno without parts)",
                              kind: .missingFile)
            }
            notice("no firmware at \(searched.isEmpty ? FirmwareLocation.inSourceTree(board: board) : searched.joined(separator: " nor "))"
                   + "; build it with \(make); using the native engine")
            return nil
        }
        guard let arduino = ArduinoBoard(rawValue: board) else {
            throw Failure(description: "--board \(board): the emulator runs \(ArduinoBoard.allCases.map(\.rawValue).joined(separator: ", ")) builds", kind: .badFile)
        }
        do {
            var configuration = AVRBoard.Configuration(firmwarePath: firmware, pace: pace, linkPath: linkPath,
                                                       motionSource: motionSource(rateHz: 100))
            configuration.holdInResetUntilOpened = holdUntilOpened
            configuration.sensorAddress = sensorAddress
            configuration.sensorInterruptPin = sensorInterrupt.pin(on: arduino)
            configuration.displayAddress = displayAddress
            configuration.sensorWhoAmI = sensorWhoAmI
            configuration.display = display
            configuration.displayMaxClockHz = displayMaxClockHz
            configuration.configure(for: arduino)
            return try AVRBoard(configuration)
        } catch where error.isFirmwareProblem {
            guard firmwarePath == nil, firmwareNeededBy == nil else { throw Failure(description: error.description, kind: .badFile) }
            notice("cannot run \(firmware) in simavr (\(error)); using the native engine")
            return nil
        } catch {
            throw Failure(description: error.description, kind: .system)
        }
    }
}
