import TiltExitStatus

/// Every way `tiltserial` can stop short: the failure type both tools share,
/// with its exit code (`ExitStatus`; docs/usage.md lists them) and a one-line
/// message that names the fix. A live run's summary is the runner's
/// (`HostRunner.lastSummary`), not the failure's.
public typealias Failure = CommandFailure
