import TiltDisplay
import WireProtocol

/// The board's screen as the host last told it to draw: the last OFFSETS and
/// the drawer scene (DRAWER, PIN), rendered with the same `ScreenRenderer` the
/// firmware's algorithm matches (docs/display.md), so a live view shows
/// exactly what the OLED shows.
public struct DisplayMirror: Sendable {
    /// Draws the screen from OFFSETS and the drawer scene (the shipped art's).
    public let renderer: ScreenRenderer
    /// The current screen (blank until the first `show`).
    public private(set) var screen = Screen()
    /// What is drawn.
    public private(set) var scene = BoardScene()
    /// The OFFSETS frame drawn last.
    public var shown: OffsetsFrame? { scene.offsets }

    /// A mirror of a board that has drawn nothing yet.
    public init(renderer: ScreenRenderer) {
        self.renderer = renderer
    }

    /// Redraws for `offsets` with the drawer scene as it is (no allocation:
    /// renders into the existing screen).
    public mutating func show(_ offsets: OffsetsFrame) {
        scene.offsets = offsets
        redraw()
    }

    /// Applies a tick's DRAWER and PIN frames and redraws (once OFFSETS came).
    public mutating func apply(_ wire: SceneWire) {
        scene.apply(wire)
        redraw()
    }

    /// Shows a whole scene (e.g. `HostSnapshot.scene`).
    public mutating func show(_ scene: BoardScene) {
        self.scene = scene
        redraw()
    }

    mutating func redraw() {
        guard let offsets = scene.offsets else { return }
        renderer.render(
            viewportX: offsets.viewportX, viewportY: offsets.viewportY, ribbonX: offsets.ribbonX,
            ribbonBottom: offsets.ribbonBottom, scene: scene.drawer, into: &screen)
    }
}
