// The motions the emulated sensor plays live in their own pure module, which
// `tiltserial demo` also uses (for a scenario's length) without the emulator.
@_exported import TiltMotion
