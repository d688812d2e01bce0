import TiltDisplay
import WireProtocol

/// The native board's display side: the firmware's display pipeline
/// (`NativeDisplayPipe`) drawing with the art's renderer, its READY frames
/// stamped in board time, and what the glass shows for the status.
struct NativeDisplay {
    /// The pipeline and the glass it fills.
    private(set) var pipe = NativeDisplayPipe()
    let renderer: ScreenRenderer

    /// Power-on or reset at lifetime µs `t`.
    mutating func reset(at t: UInt64) { pipe.reset(at: t) }

    /// When the bus transfer under way ends (lifetime µs); nil when none is.
    var transferEnd: UInt64? { pipe.transferEnd }

    /// step_display() up to the clock's lifetime: samples take the bus from the
    /// clock's next one on (unless `sensor` is false), READY frames go to
    /// `send`; true when the glass changed.
    mutating func step(_ clock: NativeClock, sensor: Bool, firmware: inout NativeFirmware,
                       send: (ReadyFrame) -> Void) -> Bool {
        let version = firmware.version, boot = clock.boot
        return pipe.run(until: clock.lifetime, nextSample: sensor ? clock.nextSampleLifetime : nil,
                        period: firmware.periodMicros, firmware: &firmware, render: { [renderer] view, scene in
            guard let view else { return NativeFirmware.statusScreen(version: version, sensorOK: true) }  // not reached: `still`
            var screen = Screen()
            renderer.render(viewportX: view.viewport_x, viewportY: view.viewport_y, ribbonX: view.ribbon_x,
                            ribbonBottom: view.ribbon_bottom, scene: scene, into: &screen)
            return screen
        }, ready: { at, idle in
            send(ReadyFrame(boardTime: UInt32(truncatingIfNeeded: at - min(at, boot)) & 0xFF_FFFF,
                            flags: idle ? ReadyFrame.idleFlag : 0))
        })
    }

    /// Puts the glass in `status` when it changed (a new generation), and
    /// whether the display is idle (`redrawDue`: the firmware owes a frame).
    func report(into status: inout NativeBoardStatus, glassChanged: Bool, redrawDue: Bool) {
        if glassChanged {
            status.screen = Screen(bytes: pipe.glass)!
            status.showsWaitingScreen = pipe.glassShowsStatus
            status.glassFrames = pipe.framesShown
            status.screenGeneration += 1
        }
        status.displayIdle = pipe.isIdle && !redrawDue
    }
}
