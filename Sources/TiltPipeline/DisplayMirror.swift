import TiltDisplay
import WireProtocol

/// The board's screen as the host last told it to draw: the last OFFSETS
/// rendered with the same `FrameRenderer` the firmware's algorithm matches
/// (docs/display.md), so a live view shows exactly what the OLED shows.
public struct DisplayMirror: Sendable {
    public let renderer: FrameRenderer
    /// The current frame (blank until the first `show`).
    public private(set) var frame = Frame()
    /// The OFFSETS frame drawn last.
    public private(set) var shown: OffsetsFrame?

    public init(renderer: FrameRenderer) {
        self.renderer = renderer
    }

    /// Redraws for `offsets` (no allocation: renders into the existing frame).
    public mutating func show(_ offsets: OffsetsFrame) {
        renderer.render(
            viewportX: offsets.viewportX, viewportY: offsets.viewportY, ribbonX: offsets.ribbonX,
            ribbonBottom: offsets.ribbonBottom, into: &frame)
        shown = offsets
    }
}
