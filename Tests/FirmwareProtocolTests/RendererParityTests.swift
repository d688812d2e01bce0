import FirmwareCore
import TiltAssets
import TiltCore
import TiltDisplay
import Testing

/// Renders the whole screen with the firmware's C page renderer, in the
/// span sizes the sketch sends (31 columns), from the same art as `renderer`.
func firmwareScreen(_ renderer: ScreenRenderer, vx: UInt16, vy: UInt16, rx: UInt16, rb: UInt16, span: Int = 31) -> [UInt8] {
    var out = [UInt8](repeating: 0xEE, count: 1024)
    renderer.tile.pageBytes.withUnsafeBufferPointer { tile in
    renderer.ribbon.drawnPages.withUnsafeBufferPointer { drawn in
    renderer.ribbon.litPages.withUnsafeBufferPointer { lit in
        var art = tilt_art(tile: tile.baseAddress, tile_width: UInt16(renderer.tile.width), tile_height: UInt16(renderer.tile.height),
                           ribbon_drawn: drawn.baseAddress, ribbon_lit: lit.baseAddress,
                           ribbon_width: UInt8(renderer.ribbon.width), ribbon_height: UInt8(renderer.ribbon.height),
                           read: tilt_read_ram, items_lit: nil, items_drawn: nil, item_count: 0)
        var view = tilt_view(viewport_x: vx, viewport_y: vy, ribbon_x: rx, ribbon_bottom: rb)
        out.withUnsafeMutableBufferPointer { buffer in
            for page in 0..<8 {
                var first = 0
                while first < 128 {
                    let count = min(span, 128 - first)
                    tilt_render_span(&art, &view, UInt8(page), UInt8(first), UInt8(count), buffer.baseAddress! + page * 128 + first)
                    first += count
                }
            }
        }
    }
    }
    }
    return out
}

@Suite struct RendererParityTests {
    static let art = try! TiltAssets.load()

    func swiftScreen(_ renderer: ScreenRenderer, vx: UInt16, vy: UInt16, rx: UInt16, rb: UInt16) -> [UInt8] {
        var screen = Screen()
        renderer.render(viewportX: vx, viewportY: vy, ribbonX: rx, ribbonBottom: rb, into: &screen)
        return screen.bytes
    }

    @Test func shippedArtAcrossTheContent() {
        let renderer = Self.art.renderer
        let geometry = renderer.tile.geometry
        var mismatches = 0, screens = 0
        for vx in stride(from: 0, through: geometry.maxViewportX, by: 19) {
            for vy in stride(from: 0, through: geometry.maxViewportY, by: 13) {
                for (dx, stretch) in [(-12, 0), (-5, 9), (60, 30), (122, 63), (127, 70), (130, 5)] {
                    let rx = UInt16(clamping: vx + dx), rb = UInt16(clamping: vy + stretch)
                    screens += 1
                    if firmwareScreen(renderer, vx: UInt16(vx), vy: UInt16(vy), rx: rx, rb: rb)
                        != swiftScreen(renderer, vx: UInt16(vx), vy: UInt16(vy), rx: rx, rb: rb) { mismatches += 1 }
                }
            }
        }
        #expect(screens > 1000)
        #expect(mismatches == 0)
    }

    @Test func randomArtStatesAndSpans() throws {
        var seed: UInt64 = 0x5EED
        func next(_ range: ClosedRange<Int>) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
        }
        for _ in 0..<60 {
            let tw = 8 * next(1...32), th = 8 * next(1...16)
            let tile = try ContentTile(bitmap: Bitmap(width: tw, height: th, pixels: (0..<tw * th).map { _ in UInt8(next(0...1)) })!)
            let aw = next(1...128), ah = next(1...128)
            let ribbon = try RibbonArt(mask: AlphaMask(width: aw, height: ah, alpha: (0..<aw * ah).map { _ in UInt8(next(0...255)) })!)
            let renderer = ScreenRenderer(tile: tile, ribbon: ribbon)
            for _ in 0..<6 {
                let vx = UInt16(next(0...65535)), vy = UInt16(next(0...65535))
                let rx = UInt16(clamping: Int(vx) + next(-140...140)), rb = UInt16(clamping: Int(vy) + next(-10...200))
                let span = next(1...128)
                #expect(firmwareScreen(renderer, vx: vx, vy: vy, rx: rx, rb: rb, span: span)
                        == swiftScreen(renderer, vx: vx, vy: vy, rx: rx, rb: rb), "vx \(vx) vy \(vy) rx \(rx) rb \(rb) span \(span)")
            }
        }
    }
}
