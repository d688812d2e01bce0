import TiltDisplay

extension AVRDisplayFrame {
    /// What the glass shows, as a frame: dark while the display is off, else
    /// its memory as stored (docs/display.md's layout). The PNG, `--screen`
    /// and `tiltsim run`'s screenshots all come from here.
    public var glass: TiltDisplay.Frame {
        guard isOn, let frame = TiltDisplay.Frame(bytes: vram) else { return TiltDisplay.Frame() }
        return frame
    }
}
