import SerialIO
import TiltPipeline

/// Where a run's results go: everything `HostRunner` does not do itself (it
/// writes to, opens and closes the port). `RunOutput` is the commands' (run,
/// demo, replay, calibrate); tests record, the benchmarks drop. Calls come on
/// the runner's thread, in the order the driver decided them, each after the
/// driver call that caused it returned. The driver's own values arrive
/// unchanged; the port is the output's to name.
public protocol HostOutput: AnyObject {
    /// A data event (JSON, log lines, the view), after the frames it brought were written.
    func event(_ event: HostEvent)
    /// The driver's news about the link (waiting, gone, reopened, trouble), for people.
    func news(_ news: HostNews)
    /// A hook to start (`--on-pull`, `--on-pin`), right after its event.
    func hook(_ request: HookRequest)
    /// The state to redraw the live view from: at the refresh period, after a
    /// resize (SIGWINCH, `fg`) and after the view's `c`.
    func refresh(_ snapshot: HostSnapshot)
    /// What the view's `c` did (the rest pose, or why it stayed).
    func recalibrated(_ outcome: Recalibration)
    /// What was done about the FTDI latency timer, after each open.
    func ftdiLatency(_ outcome: FTDILatency.Outcome)
    /// Other programs have the device open too (they take bytes meant for the host).
    func otherOpeners(_ others: [DeviceOpener])
    /// Writing `--record` failed (e.g. the disk is full): said once, when it happens.
    func recordingFailed(_ message: String)
    /// Reopening after an unplug failed for a reason other than the device
    /// not being back (busy, permission, someone's terminal): said once per
    /// reason; the run keeps trying.
    func reopenRefused(_ error: SerialError)
}

extension HostOutput {
    /// Not drawn: an output without a live view overrides nothing here.
    public func refresh(_ snapshot: HostSnapshot) {}
    /// Not started: an output without hooks overrides nothing here.
    public func hook(_ request: HookRequest) {}
    /// Not said: an output that does not talk to people overrides nothing here.
    public func recalibrated(_ outcome: Recalibration) {}
    /// Not said: an output that does not talk to people overrides nothing here.
    public func ftdiLatency(_ outcome: FTDILatency.Outcome) {}
    /// Not said: an output that does not talk to people overrides nothing here.
    public func otherOpeners(_ others: [DeviceOpener]) {}
    /// Not said: an output that does not talk to people overrides nothing here.
    public func recordingFailed(_ message: String) {}
    /// Not said: an output that does not talk to people overrides nothing here.
    public func reopenRefused(_ error: SerialError) {}
}
