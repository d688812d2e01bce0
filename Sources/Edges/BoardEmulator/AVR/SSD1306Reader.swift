import CBoardParts

/// Reads the SSD1306 part model (CBoardParts) into an `AVRDisplayFrame`.
/// Simulation thread only, between batches.
struct SSD1306Reader {
    private var state = cbp_ssd1306_state()

    /// The display as it is now (scrolling brought up to the core's cycle), or
    /// nil when nothing changed since the last call.
    mutating func frameIfChanged(_ part: OpaquePointer?) -> AVRDisplayFrame? {
        guard let part, cbp_ssd1306_snapshot(part, &state) else { return nil }
        let vram = withUnsafeBytes(of: &state.gddram) { Array($0) }
        return AVRDisplayFrame(vram: vram, registers: SSD1306Registers(state))
    }

    /// The display as it is now, changed or not (does not reset the part's change flag).
    mutating func frame(_ part: OpaquePointer?) -> AVRDisplayFrame? {
        guard let part else { return nil }
        cbp_ssd1306_peek(part, &state)
        let vram = withUnsafeBytes(of: &state.gddram) { Array($0) }
        return AVRDisplayFrame(vram: vram, registers: SSD1306Registers(state))
    }
}

extension SSD1306Registers {
    init(_ s: cbp_ssd1306_state) {
        self.init()
        displayOn = s.display_on != 0
        chargePump = s.charge_pump != 0
        inverse = s.inverse != 0
        entireOn = s.entire_on != 0
        segmentRemap = s.segment_remap != 0
        comReversed = s.com_reversed != 0
        startLine = s.start_line
        offset = s.offset
        multiplex = s.multiplex
        comPins = s.com_pins
        contrast = s.contrast
        addressingMode = s.addressing_mode
        scrollActive = s.scroll_active != 0
        verticalScrollTop = s.vscroll_top
        verticalScrollRows = s.vscroll_rows
        verticalScrollOffset = s.vscroll_offset
        scrollSteps = s.scroll_steps
        frameCycles = s.frame_cycles
        panelRows = s.kind == CBP_DISPLAY_SSD1306_128X32 ? 32 : 64
    }
}
