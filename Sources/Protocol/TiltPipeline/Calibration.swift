import TiltCore

/// `tiltserial calibrate` as a pure state machine fed readings with their
/// board time: no clock, no I/O. Three steps, each ending when the board has
/// kept still for `stillMicros` (every axis's standard deviation at most
/// `stillDeviation` g, the mean about 1 g) somewhere new:
///
/// 1. rest: held as one holds it to look at it (the first `leadInMicros` of
///    readings are skipped, time to pick it up);
/// 2. right: tilted with the right side down, at least `minimumMove` g from rest;
/// 3. back: tilted back toward face-up, at least `minimumMove` g from both.
///
/// Then `CalibrationSolver` works out the mounting and the rest pose. A step
/// that does not end within `stepTimeoutMicros` fails, saying whether the board
/// never kept still or never moved far enough.
public struct Calibration: Sendable {
    /// The three poses, in the order they are asked for (raw values 1...3, as shown to the person).
    public enum Step: Int, Hashable, Sendable, CaseIterable {
        /// Held as one looks at it; tilted right side down; tilted back toward face-up.
        case rest = 1, right, back
    }

    /// The thresholds and times of the steps (board time, g); the defaults suit a hand-held board.
    public struct Configuration: Hashable, Sendable {
        /// How long the board must keep still, µs of board time.
        public var stillMicros: UInt64 = 1_000_000
        /// The resolution of that time, µs.
        public var bucketMicros: UInt64 = 100_000
        /// The largest standard deviation of a still axis, g. The MPU-6050's
        /// own noise is about 0.009 g at 1 kHz; a hand held still adds a little.
        public var stillDeviation = 0.03
        /// The mean of a still reading is gravity alone: 1 g give or take this.
        public var gravityTolerance = 0.2
        /// Readings skipped before the rest step starts to count, µs.
        public var leadInMicros: UInt64 = 1_000_000
        /// How far (g, ≈ 14°) a pose must lie from the ones before it.
        public var minimumMove = 0.25
        /// A step that has not ended after this long fails, µs of board time.
        public var stepTimeoutMicros: UInt64 = 30_000_000

        /// The defaults: 1 s still within 0.03 g, 1 s lead-in, 0.25 g between poses, 30 s per step.
        public init() {}
    }

    /// What the shell shows or does.
    public enum Progress: Hashable, Sendable {
        /// Tell the person what to do for this step.
        case started(Step)
        /// The step's pose: mean gravity on the sensor's axes, g.
        case captured(Step, Axes3<Double>)
        /// All three poses taken: the mounting and rest pose worked out.
        case finished(CalibrationSolver.Result)
        /// The calibration stopped; `step` is nil from then on.
        case failed(Failure)
    }

    /// Why a calibration failed, with the step and the board time spent on it (µs).
    public enum Failure: Error, Hashable, Sendable {
        /// The board never kept still for a whole window in the step.
        case neverStill(Step, afterMicros: UInt64)
        /// It kept still, but never far enough from the poses before.
        case didNotMove(Step, afterMicros: UInt64)
        /// The solver refused the poses.
        case poses(CalibrationSolver.Problem)
    }

    /// The thresholds and times it runs with.
    public let configuration: Configuration
    /// The step under way; nil once finished or failed.
    public private(set) var step: Step? = .rest
    /// The poses captured so far (mean gravity on the sensor's axes, g), in step order.
    public private(set) var poses: [Axes3<Double>] = []
    private var window: StillnessWindow
    /// Board time the current step started counting from (after the lead-in for rest).
    private var stepStart: UInt64?
    private var firstReading: UInt64?
    private var lastMicros: UInt64?
    private var sawStill = false

    /// A calibration at its first step (rest), nothing read yet.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        window = StillnessWindow(windowMicros: configuration.stillMicros, bucketMicros: configuration.bucketMicros)
        poses.reserveCapacity(3)
    }

    /// The first prompt.
    public func start(_ handle: (Progress) -> Void) {
        handle(.started(.rest))
    }

    /// The board restarted its clock (a HELLO after a reset): the readings so
    /// far in this step no longer line up in time; the poses captured stay.
    public mutating func linkRestarted() {
        window.clear()
        lastMicros = nil
        stepStart = nil
    }

    /// One reading: gravity on the sensor's axes (iOS convention, `SampleConverter`
    /// with the identity mapping) at board time `micros`.
    public mutating func take(_ accel: Axes3<Fixed>, atMicros micros: UInt64, _ handle: (Progress) -> Void) {
        guard let step else { return }
        if let last = lastMicros, micros < last {
            linkRestarted()  // time ran backwards: a board that reset without saying so
        }
        lastMicros = micros
        let first = firstReading ?? micros
        firstReading = first
        if step == .rest && micros < first + configuration.leadInMicros { return }
        let start = stepStart ?? micros
        stepStart = start
        if let reading = window.add(accel, atMicros: micros), isStill(reading) {
            sawStill = true
            if isNew(reading.mean) {
                capture(reading.mean, handle)
                return
            }
        }
        if micros - start > configuration.stepTimeoutMicros {
            fail(sawStill ? .didNotMove(step, afterMicros: micros - start) : .neverStill(step, afterMicros: micros - start), handle)
        }
    }

    private func isStill(_ r: StillnessWindow.Reading) -> Bool {
        let c = configuration
        let magnitude = (r.mean.x * r.mean.x + r.mean.y * r.mean.y + r.mean.z * r.mean.z).squareRoot()
        return r.deviation.x <= c.stillDeviation && r.deviation.y <= c.stillDeviation && r.deviation.z <= c.stillDeviation
            && abs(magnitude - 1) <= c.gravityTolerance
    }

    private func isNew(_ mean: Axes3<Double>) -> Bool {
        poses.allSatisfy { pose in
            let d = Axes3(x: mean.x - pose.x, y: mean.y - pose.y, z: mean.z - pose.z)
            return (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot() >= configuration.minimumMove
        }
    }

    /// A pose is `captured` ("got it") only once it passed its checks: a
    /// person was told "got it" and then that the tilt was wrong.
    private mutating func capture(_ mean: Axes3<Double>, _ handle: (Progress) -> Void) {
        guard let step else { return }
        poses.append(mean)
        window.clear()
        stepStart = nil
        sawStill = false
        switch step {
        case .rest:
            handle(.captured(step, mean))
            self.step = .right
            handle(.started(.right))
        case .right:
            // A tilt that is not sideways is refused at once, before the third step.
            let d = Axes3(x: mean.x - poses[0].x, y: mean.y - poses[0].y, z: mean.z - poses[0].z)
            let largest = max(abs(d.x), abs(d.y), abs(d.z))
            let others = max(d.x * d.x + d.y * d.y + d.z * d.z - largest * largest, 0).squareRoot()
            guard largest >= 2 * others else { return fail(.poses(.notSideways), handle) }
            handle(.captured(step, mean))
            self.step = .back
            handle(.started(.back))
        case .back:
            self.step = nil
            let result: CalibrationSolver.Result
            do {
                result = try CalibrationSolver.solve(rest: poses[0], right: poses[1], back: poses[2])
            } catch {
                return handle(.failed(.poses(error)))
            }
            handle(.captured(step, mean))
            handle(.finished(result))
        }
    }

    private mutating func fail(_ failure: Failure, _ handle: (Progress) -> Void) {
        step = nil
        handle(.failed(failure))
    }
}
