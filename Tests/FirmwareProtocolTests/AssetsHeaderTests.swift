import Foundation
import TiltAssets
import TiltDisplay
import Testing

/// Hardware/tiltserial/assets.h (what the board draws from) must hold exactly the
/// art the host loads: the generator and the Swift parsers agree, and the header
/// is not stale (`make -C Hardware assets` regenerates it).
@Suite struct AssetsHeaderTests {
    static let header: String? = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Hardware/tiltserial/assets.h")
        return try? String(contentsOf: url, encoding: .utf8)
    }()

    /// The bytes of `static const uint8_t NAME[...] PROGMEM = { ... };`.
    func array(_ name: String) -> [UInt8]? {
        guard let text = Self.header, let start = text.range(of: "\(name)["),
              let open = text.range(of: "{", range: start.upperBound..<text.endIndex),
              let close = text.range(of: "}", range: open.upperBound..<text.endIndex) else { return nil }
        return text[open.upperBound..<close.lowerBound]
            .split(whereSeparator: { $0 == "," || $0.isWhitespace })
            .compactMap { UInt8($0.dropFirst(2), radix: 16) }
    }

    func define(_ name: String) -> Int? {
        guard let text = Self.header, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("#define \(name) ") }) else { return nil }
        let value = line.split(separator: " ")[2].replacingOccurrences(of: "u", with: "")
        return value.hasPrefix("0x") ? Int(value.dropFirst(2), radix: 16) : Int(value)
    }

    @Test func headerMatchesTheSharedArt() throws {
        #expect(Self.header != nil, "Hardware/tiltserial/assets.h not found")
        let art = try TiltAssets.load()
        #expect(array("asset_tile") == art.tile.pageBytes, "assets.h is stale: run make -C Hardware assets")
        #expect(array("asset_ribbon_drawn") == art.ribbon.drawnPages)
        #expect(array("asset_ribbon_lit") == art.ribbon.litPages)
        #expect(define("TILE_ID") == Int(art.tile.id))
        #expect(define("TILE_WIDTH") == art.tile.width && define("TILE_HEIGHT") == art.tile.height)
        #expect(define("RIBBON_WIDTH") == art.ribbon.width && define("RIBBON_HEIGHT") == art.ribbon.height)
        #expect(define("ITEM_COUNT") == art.items.count && define("ITEM_SIZE") == ItemArt.size)
        #expect(array("asset_items_lit") == art.items.litPages)
        #expect(array("asset_items_drawn") == art.items.drawnPages)
    }

    @Test func theDrawerHoldsTheIssuesEightItemsInOrder() throws {
        let art = try TiltAssets.load()
        #expect(art.items.names == ["pin", "flag", "star", "home", "heart", "camera", "tent", "fuel"])
        #expect(art.items.icons.allSatisfy { $0.pixels.contains(1) })
    }
}
