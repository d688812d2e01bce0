import FirmwareCore
import TiltDisplay
import WireProtocol

/// The firmware's behaviour for the native board, run from the firmware's own
/// C (Hardware/tiltserial/src/core, the FirmwareCore target) rather than a
/// Swift port of it: payload handling (the receiver, `tilt_rx`, is `NativeInput`'s) and the
/// sample-rate rule (`tilt_board`, `tilt_rate`), HELLO, and the status screen
/// (`tilt_status`). A value: no clock, no I/O; the board feeds it payloads and
/// board time and performs what it asks.
struct NativeFirmware {
    enum Action: Equatable {
        case sendPong(token: UInt32)
        case sendHello
        /// CONFIGURE: the rate, period and full scales changed; HELLO follows.
        case reconfigured
        /// An OFFSETS frame (the view is kept; `takeRedraw` says if the screen must change).
        case offsets(OffsetsFrame)
        case ping
        /// DESCRIBE, or DISPLAY (carried out already): say which parts were found (PARTS).
        case sendParts
    }

    /// The board's EEPROM record (tilt_settings.h), kept across resets like the
    /// chip's; erased (all 0xFF) when the model is made.
    private(set) var eeprom = [UInt8](repeating: 0xFF, count: Int(TILT_SETTINGS_SIZE))
    /// The display kind in use (PARTS' numbering): the stored one, else the
    /// detected one (the native board's display is an SSD1306 128×64).
    private(set) var displayKind = UInt8(TILT_DISPLAY_SSD1306_128X64)
    /// The display kind came from the EEPROM, not detection.
    private(set) var displayStored = false
    /// The display's I2C clock in use (TILT_DISPLAY_CLOCK_*): the stored one.
    private(set) var displayClock = UInt8(TILT_DISPLAY_CLOCK_400KHZ)
    /// The test pattern shows (DISPLAY try), until OFFSETS or another DISPLAY.
    var showsPattern: Bool { board.pattern }

    /// No OFFSETS for this long: the status screen (the firmware's TILT_HOST_TIMEOUT_MS).
    static let hostTimeoutMillis = UInt32(TILT_HOST_TIMEOUT_MS)

    let version: (major: UInt8, minor: UInt8, patch: UInt8)
    private var board = tilt_board()

    init(version: (major: UInt8, minor: UInt8, patch: UInt8)) {
        self.version = version
    }

    /// setup(): the defaults, no host, the status screen due. The model may
    /// power on at any rate (up to 65535 Hz, beyond the firmware's 1000) with
    /// the period rounded to whole µs; CONFIGURE then follows the firmware's rule.
    mutating func powerOn(rateHz: Int) {
        tilt_board_init(&board, 100, 0, 0)
        board.sample_rate_hz = UInt16(clamping: rateHz)
        beginDisplay()
        powerOnPeriod = Self.period(rateHz)
        configured = false
    }

    private var powerOnPeriod: UInt64 = 10_000
    private var configured = false

    var sampleRateHz: Int { Int(board.sample_rate_hz) }
    var accelSelect: UInt8 { board.accel_fs }
    var gyroSelect: UInt8 { board.gyro_fs }
    var hostLive: Bool { board.host_live }

    /// The sample period in effect: exactly (1 + SMPLRT_DIV) ms after CONFIGURE.
    var periodMicros: UInt64 { configured ? UInt64(tilt_rate_period_us(board.divider)) : powerOnPeriod }

    /// Handles one payload from the firmware's receiver (`NativeInput`: type ‖
    /// body, CRC stripped) at board time `nowMicros`; `action` gets what the
    /// firmware would do, in order.
    mutating func handle(_ frame: UnsafeRawBufferPointer, nowMicros: UInt64, _ action: (Action) -> Void) {
        let now = UInt32(truncatingIfNeeded: nowMicros / 1000)
        guard let payload = frame.baseAddress?.assumingMemoryBound(to: UInt8.self), frame.count <= UInt8.max else { return }
        let length = UInt8(frame.count)
        var token: UInt32 = 0
        switch tilt_board_handle(&board, payload, length, now, &token) {
        case TILT_BOARD_SEND_PONG:
            action(.ping)
            action(.sendPong(token: token))
        case TILT_BOARD_SEND_HELLO:
            action(.sendHello)
        case TILT_BOARD_SEND_PARTS:
            action(.sendParts)
        case TILT_BOARD_DISPLAY:
            applyDisplayChoice(board.display)
            action(.sendParts)
        case TILT_BOARD_RECONFIGURE:
            configured = true
            action(.reconfigured)
            action(.sendHello)
        default:
            var offsets = tilt_offsets()
            if tilt_decode_offsets(payload, length, &offsets) {
                action(.offsets(OffsetsFrame(
                    sequence: offsets.seq, viewportX: offsets.viewport_x, viewportY: offsets.viewport_y,
                    ribbonX: offsets.ribbon_x, ribbonBottom: offsets.ribbon_bottom,
                    flags: OffsetsFrame.Flags(rawValue: offsets.flags))))
            }
        }
    }

    /// begin_display(): the stored kind, else detection (an SSD1306 128×64
    /// here), at the stored clock (the model's display answers at any).
    private mutating func beginDisplay() {
        let stored = tilt_settings_decode(eeprom)
        displayStored = stored.kind != UInt8(TILT_SETTINGS_NO_KIND)
        displayKind = displayStored ? stored.kind : UInt8(TILT_DISPLAY_SSD1306_128X64)
        displayClock = stored.clock
    }

    /// apply_display_choice(): try a kind, store it, forget it, store the
    /// display's clock, or go back.
    private mutating func applyDisplayChoice(_ choice: tilt_display_frame) {
        var stored = tilt_settings_decode(eeprom)
        switch UInt32(choice.op) {
        case TILT_DISPLAY_TRY:
            displayKind = choice.kind
            displayStored = false  // the kind in use is the tried one
            return
        case TILT_DISPLAY_STORE:
            stored.kind = choice.kind
        case TILT_DISPLAY_CLEAR:
            stored.kind = UInt8(TILT_SETTINGS_NO_KIND)
        case TILT_DISPLAY_SET_CLOCK:
            stored.clock = choice.kind
        default:
            beginDisplay()
            return
        }
        tilt_settings_encode(&stored, &eeprom)
        beginDisplay()
    }

    /// The PARTS the firmware sends: an MPU-6050 at 0x68 and the display at 0x3C, with its kind and flags.
    var parts: PartsFrame {
        PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C, displayKind: displayKind,
                   flags: (displayStored ? PartsFrame.kindStoredFlag : 0) | (showsPattern ? PartsFrame.patternFlag : 0)
                       | displayClock << UInt8(TILT_PARTS_CLOCK_SHIFT))
    }

    /// check_timers(): true once when the host has been silent for a second (then redraw).
    mutating func hostTimedOut(nowMicros: UInt64) -> Bool {
        tilt_board_host_timed_out(&board, UInt32(truncatingIfNeeded: nowMicros / 1000))
    }

    /// A new view (or the status screen) waits to be latched.
    var redrawDue: Bool { board.redraw }
    /// SYNC 1 is in effect: READY frames are wanted (docs/protocol.md).
    var syncOn: Bool { board.sync }
    /// An idle READY is owed (after SYNC 1, or a latch since the last one).
    var idleReadyOwed: Bool { board.idle_ready_owed }
    /// The idle READY went out.
    mutating func idleReadySent() { board.idle_ready_owed = false }

    /// step_display()'s latch: the view to draw with the drawer and pins as
    /// DRAWER and PIN set them, or (view nil) the screen drawn instead: the test
    /// pattern, or the status screen.
    mutating func takeRedraw() -> (view: tilt_view?, scene: DrawerScene, still: Screen?) {
        board.redraw = false
        board.idle_ready_owed = true  // a latch: an idle READY follows once drawn (after SYNC 1)
        if board.pattern { return (nil, scene, patternScreen()) }
        if board.host_live { return (board.wanted, scene, nil) }
        return (nil, scene, statusScreen())
    }

    /// The display test pattern for the kind in use, as the firmware draws it.
    func patternScreen() -> Screen {
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        bytes.withUnsafeMutableBufferPointer { out in
            for page in 0..<Screen.pageCount {
                tilt_status_pattern_span(displayKind, UInt8(page), 0, UInt8(Screen.width), out.baseAddress! + page * Screen.width)
            }
        }
        return Screen(bytes: bytes)!
    }

    /// The drawer and the pin table as the firmware keeps them.
    var scene: DrawerScene {
        var scene = DrawerScene()
        let d = board.drawer
        scene.setDrawer(height: d.height, shown: d.shown, scroll: d.scroll, current: d.current,
                        dragItem: d.drag_item, dragLeft: d.drag_left, dragTop: d.drag_top, pinCount: d.pin_count)
        withUnsafeBytes(of: board.pins) { raw in
            for (slot, pin) in raw.bindMemory(to: tilt_pin.self).enumerated() {
                scene[pin: slot] = ScenePin(item: pin.item, x: pin.x, y: pin.y)
            }
        }
        return scene
    }

    /// send_hello()'s end: every HELLO starts a clean drawer (the firmware's rule).
    mutating func helloSent() {
        tilt_board_hello_sent(&board)
    }

    /// HELLO for the current settings, as the firmware encodes it (delimiter included).
    func hello(tileID: UInt16, status: UInt8) -> [UInt8] {
        var hello = tilt_hello()
        var board = self.board
        tilt_board_hello(&board, version.major, version.minor, version.patch, tileID, status, &hello)
        var wire = [UInt8](repeating: 0, count: Int(TILT_MAX_WIRE))
        let length = tilt_encode_hello(&hello, &wire)
        return Array(wire[0..<Int(length)])
    }

    /// The firmware's status screen (sensor answered: "WAITING FOR HOST"), naming a stored display kind.
    func statusScreen(sensorOK: Bool = true) -> Screen {
        Self.statusScreen(version: version, sensorOK: sensorOK, displayKind: displayKind, displayStored: displayStored)
    }

    static func statusScreen(version: (major: UInt8, minor: UInt8, patch: UInt8), sensorOK: Bool,
                             displayKind: UInt8 = UInt8(TILT_DISPLAY_SSD1306_128X64), displayStored: Bool = false) -> Screen {
        // The native board's parts: an MPU-6050 at 0x68 and a display of `displayKind`.
        var info = tilt_status_info(fw_major: version.major, fw_minor: version.minor, fw_patch: version.patch, sensor_ok: sensorOK,
                                    sensor_who_am_i: 0x68, sensor_address: UInt8(TILT_SENSOR_ADDRESS_LOW),
                                    display_kind: displayKind, display_stored: displayStored)
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        bytes.withUnsafeMutableBufferPointer { out in
            for page in 0..<Screen.pageCount {
                tilt_status_span(&info, UInt8(page), 0, UInt8(Screen.width), out.baseAddress! + page * Screen.width)
            }
        }
        return Screen(bytes: bytes)!
    }

    /// The power-on sample period for a rate, rounded to whole µs.
    static func period(_ hz: Int) -> UInt64 { UInt64(max(1, (1_000_000 + hz / 2) / max(1, hz))) }
}
