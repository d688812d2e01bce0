import TestSupport
import Testing
import TiltAssets
import TiltCore
import TiltDisplay

@Suite struct ScreenRendererTests {
    static let art = try! TiltAssets.load()

    func check(_ renderer: ScreenRenderer, vx: UInt16, vy: UInt16, rx: UInt16, rb: UInt16) {
        var screen = Screen()
        renderer.render(viewportX: vx, viewportY: vy, ribbonX: rx, ribbonBottom: rb, into: &screen)
        let expected = referenceScreen(tile: renderer.tile.bitmap, ribbon: renderer.ribbon.mask,
                                      vx: Int(vx), vy: Int(vy), rx: Int(rx), rb: Int(rb))
        let got = pixels(screen)
        let wrong = (0..<64).flatMap { r in (0..<128).filter { got[r][$0] != expected[r][$0] }.map { ($0, r) } }
        #expect(wrong.isEmpty, "vx \(vx) vy \(vy) rx \(rx) rb \(rb): \(wrong.count) pixels differ, first \(wrong.prefix(3))")
    }

    @Test(arguments: [
        (0, 0, 0, 0), (0, 0, 10, 36), (3, 5, 0, 20), (255, 127, 300, 100), (256, 128, 260, 164),
        (640, 448, 700, 480), (1, 1, 1, 1), (7, 9, 120, 40), (100, 0, 100 + 120, 1), (65535, 65535, 65535, 65535),
        (500, 250, 496, 250), (129, 63, 129 + 127, 63 + 64 + 35),
    ] as [(UInt16, UInt16, UInt16, UInt16)])
    func shippedArtMatchesTheSpecPixelForPixel(vx: UInt16, vy: UInt16, rx: UInt16, rb: UInt16) {
        check(Self.art.renderer, vx: vx, vy: vy, rx: rx, rb: rb)
    }

    @Test func randomStatesAndArtMatchTheSpec() throws {
        var rng = SplitMix64(seed: 42)
        for round in 0..<40 {
            let tw = 8 * Int.random(in: 1...32, using: &rng), th = 8 * Int.random(in: 1...16, using: &rng)
            let tile = try ContentTile(bitmap: Bitmap(width: tw, height: th,
                pixels: (0..<tw * th).map { _ in UInt8.random(in: 0...1, using: &rng) })!)
            let aw = Int.random(in: 1...40, using: &rng), ah = Int.random(in: 1...70, using: &rng)
            let ribbon = try RibbonArt(mask: AlphaMask(width: aw, height: ah,
                alpha: (0..<aw * ah).map { _ in [0, 85, 86, 170, 171, 255, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng)! })!)
            let renderer = ScreenRenderer(tile: tile, ribbon: ribbon)
            for _ in 0..<8 {
                let vx = UInt16.random(in: 0...(round % 4 == 0 ? 65535 : 600), using: &rng)
                let vy = UInt16.random(in: 0...(round % 4 == 0 ? 65535 : 300), using: &rng)
                // Put the ribbon near the viewport most of the time so it shows.
                let rx = UInt16(clamping: Int(vx) + Int.random(in: -50...140, using: &rng))
                let rb = UInt16(clamping: Int(vy) + Int.random(in: -10...(64 + ah + 10), using: &rng))
                check(renderer, vx: vx, vy: vy, rx: rx, rb: rb)
            }
        }
    }

    @Test func ribbonIsDrawnOverTheMapWithDarkEdges() {
        // A blank tile makes the art itself visible: body lit, edges dark (on a lit tile).
        let dark = try! ContentTile(bitmap: Bitmap(width: 8, height: 8)!)
        let lit = try! ContentTile(bitmap: Bitmap(width: 8, height: 8, pixels: [UInt8](repeating: 1, count: 64))!)
        let ribbon = try! RibbonArt(mask: AlphaMask(width: 3, height: 2, alpha: [128, 255, 0, 128, 255, 0])!)
        var screen = Screen()
        ScreenRenderer(tile: dark, ribbon: ribbon).render(viewportX: 0, viewportY: 0, ribbonX: 10, ribbonBottom: 2, into: &screen)
        #expect(screen[11, 0] && screen[11, 1] && !screen[10, 0] && !screen[12, 1] && !screen[11, 2])
        ScreenRenderer(tile: lit, ribbon: ribbon).render(viewportX: 0, viewportY: 0, ribbonX: 10, ribbonBottom: 2, into: &screen)
        #expect(!screen[10, 0] && !screen[10, 1] && screen[11, 0] && screen[12, 0] && screen[9, 0] && screen[10, 2])
        // Bottom 0 hides it.
        ScreenRenderer(tile: lit, ribbon: ribbon).render(viewportX: 0, viewportY: 0, ribbonX: 10, ribbonBottom: 0, into: &screen)
        #expect(screen.bytes.allSatisfy { $0 == 0xFF })
    }
}
