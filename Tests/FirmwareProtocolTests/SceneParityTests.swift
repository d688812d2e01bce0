import FirmwareCore
import TiltAssets
import TiltCore
import TiltDisplay
import Testing

/// The whole screen from the firmware's C scene renderer (`tilt_render_scene_span`),
/// in spans of `span` columns, from the same art and scene as `renderer`.
func firmwareScreen(_ renderer: ScreenRenderer, vx: UInt16, vy: UInt16, rx: UInt16, rb: UInt16, scene: DrawerScene,
                   span: Int = 31) -> [UInt8] {
    var out = [UInt8](repeating: 0xEE, count: 1024)
    var pins = (0..<DrawerScene.pinSlots).map { slot -> tilt_pin in
        let pin = scene[pin: slot]
        return tilt_pin(item: pin.item, x: pin.x, y: pin.y)
    }
    renderer.tile.pageBytes.withUnsafeBufferPointer { tile in
    renderer.ribbon.drawnPages.withUnsafeBufferPointer { drawn in
    renderer.ribbon.litPages.withUnsafeBufferPointer { lit in
    renderer.items.litPages.withUnsafeBufferPointer { itemLit in
    renderer.items.drawnPages.withUnsafeBufferPointer { itemDrawn in
    pins.withUnsafeMutableBufferPointer { pinSlots in
        var art = tilt_art(tile: tile.baseAddress, tile_width: UInt16(renderer.tile.width), tile_height: UInt16(renderer.tile.height),
                           ribbon_drawn: drawn.baseAddress, ribbon_lit: lit.baseAddress,
                           ribbon_width: UInt8(renderer.ribbon.width), ribbon_height: UInt8(renderer.ribbon.height),
                           read: tilt_read_ram, items_lit: itemLit.baseAddress, items_drawn: itemDrawn.baseAddress,
                           item_count: UInt8(renderer.items.count))
        var view = tilt_view(viewport_x: vx, viewport_y: vy, ribbon_x: rx, ribbon_bottom: rb)
        var cScene = tilt_scene(height: scene.height, shown: scene.shown, scroll: scene.scroll, current: scene.current,
                                drag_item: scene.dragItem, drag_left: scene.dragLeft, drag_top: scene.dragTop,
                                pin_count: scene.pinCount, pins: UnsafePointer(pinSlots.baseAddress))
        out.withUnsafeMutableBufferPointer { buffer in
            for page in 0..<8 {
                var first = 0
                while first < 128 {
                    let count = min(span, 128 - first)
                    tilt_render_scene_span(&art, &view, &cScene, UInt8(page), UInt8(first), UInt8(count), buffer.baseAddress! + page * 128 + first)
                    first += count
                }
            }
        }
    }
    }
    }
    }
    }
    }
    return out
}

/// The drawer, the dragged item and the pins: the firmware's C renderer against
/// the host's, byte for byte (docs/display.md).
@Suite struct SceneParityTests {
    static let art = try! TiltAssets.load()

    static func swiftScreen(_ renderer: ScreenRenderer, vx: UInt16, vy: UInt16, rx: UInt16, rb: UInt16, scene: DrawerScene) -> [UInt8] {
        var screen = Screen()
        renderer.render(viewportX: vx, viewportY: vy, ribbonX: rx, ribbonBottom: rb, scene: scene, into: &screen)
        return screen.bytes
    }

    struct Random {
        var rng: SplitMix64
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(rng.next() % UInt64(range.count)) }
    }

    /// A scene with every field anywhere near (and past) what the host sends.
    static func randomScene(_ r: inout Random, items: Int, vx: Int, vy: Int) -> DrawerScene {
        var scene = DrawerScene()
        let height = r.int(0...5) == 0 ? r.int(0...255) : r.int(22...64)
        scene.setDrawer(
            height: UInt8(height), shown: UInt8(r.int(0...3) == 0 ? r.int(0...255) : r.int(0...height)),
            scroll: Int16(r.int(0...4) == 0 ? r.int(-32768...32767) : r.int(-80...200)),
            current: UInt8(r.int(0...3) == 0 ? 0xFF : r.int(0...items + 1)),
            dragItem: UInt8(r.int(0...2) == 0 ? 0xFF : r.int(0...items + 1)),
            dragLeft: Int16(r.int(-20...140)), dragTop: Int16(r.int(-20...80)),
            pinCount: UInt8(r.int(0...4) == 0 ? r.int(0...255) : r.int(0...32)))
        for slot in 0..<DrawerScene.pinSlots {
            let near = r.int(0...3) != 0
            scene[pin: slot] = ScenePin(
                item: UInt8(r.int(0...items + 1)),
                x: UInt16(clamping: near ? vx + r.int(-20...150) : r.int(0...65535)),
                y: UInt16(clamping: near ? vy + r.int(-20...90) : r.int(0...65535)))
        }
        return scene
    }

    @Test func anEmptySceneDrawsWhatThePlainRendererDraws() {
        let renderer = Self.art.renderer
        for (vx, vy, rx, rb) in [(0, 0, 58, 15), (190, 0, 250, 37), (384, 192, 0, 0), (77, 13, 70, 40)] as [(UInt16, UInt16, UInt16, UInt16)] {
            var plain = Screen()
            renderer.render(viewportX: vx, viewportY: vy, ribbonX: rx, ribbonBottom: rb, into: &plain)
            #expect(Self.swiftScreen(renderer, vx: vx, vy: vy, rx: rx, rb: rb, scene: .empty) == plain.bytes)
            #expect(firmwareScreen(renderer, vx: vx, vy: vy, rx: rx, rb: rb, scene: .empty) == plain.bytes)
        }
    }

    @Test func shippedArtDrawerDragAndPinsAgree() {
        let renderer = Self.art.renderer
        var r = Random(rng: SplitMix64(seed: 0xD4A3E4))
        var differing = 0, screens = 0, withDrawer = 0
        for _ in 0..<400 {
            let vx = r.int(0...384), vy = r.int(0...192)
            let scene = Self.randomScene(&r, items: renderer.items.count, vx: vx, vy: vy)
            let rx = UInt16(clamping: vx + r.int(-20...140)), rb = UInt16(clamping: vy + r.int(0...60))
            let swift = Self.swiftScreen(renderer, vx: UInt16(vx), vy: UInt16(vy), rx: rx, rb: rb, scene: scene)
            var plain = Screen()
            renderer.render(viewportX: UInt16(vx), viewportY: UInt16(vy), ribbonX: rx, ribbonBottom: rb, into: &plain)
            if swift != plain.bytes { withDrawer += 1 }
            screens += 1
            if firmwareScreen(renderer, vx: UInt16(vx), vy: UInt16(vy), rx: rx, rb: rb, scene: scene, span: r.int(1...128)) != swift {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) of \(screens) screens differ")
        #expect(withDrawer > 300, "the scenes drew something over the map (\(withDrawer) of \(screens))")
    }

    @Test func randomArtAndScenesAgree() throws {
        var r = Random(rng: SplitMix64(seed: 0x5CE7E))
        for _ in 0..<40 {
            let tw = 8 * r.int(1...32), th = 8 * r.int(1...16)
            let tile = try ContentTile(bitmap: Bitmap(width: tw, height: th, pixels: (0..<tw * th).map { _ in UInt8(r.int(0...1)) })!)
            let aw = r.int(1...128), ah = r.int(1...128)
            let ribbon = try RibbonArt(mask: AlphaMask(width: aw, height: ah, alpha: (0..<aw * ah).map { _ in UInt8(r.int(0...255)) })!)
            let count = r.int(0...12)
            let icons = (0..<count).map { _ in
                Bitmap(width: 16, height: 16, pixels: (0..<256).map { i in
                    let x = i % 16, y = i / 16
                    return x == 0 || x == 15 || y == 0 || y == 15 ? 0 : UInt8(r.int(0...1))
                })!
            }
            let items = try ItemArt(names: (0..<count).map { "i\($0)" }, icons: icons)
            let renderer = ScreenRenderer(tile: tile, ribbon: ribbon, items: items)
            for _ in 0..<6 {
                let vx = r.int(0...65535), vy = r.int(0...65535)
                let scene = Self.randomScene(&r, items: count, vx: vx, vy: vy)
                let rx = UInt16(clamping: vx + r.int(-140...140)), rb = UInt16(clamping: vy + r.int(-10...200))
                let span = r.int(1...128)
                #expect(firmwareScreen(renderer, vx: UInt16(vx), vy: UInt16(vy), rx: rx, rb: rb, scene: scene, span: span)
                        == Self.swiftScreen(renderer, vx: UInt16(vx), vy: UInt16(vy), rx: rx, rb: rb, scene: scene),
                        "vx \(vx) vy \(vy) rx \(rx) rb \(rb) span \(span) scene \(scene)")
            }
        }
    }
}
