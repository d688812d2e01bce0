import TiltCore
import TiltDisplay

/// The shipped art (Resources/map-tile.pbm, ribbon.pgm and the drawer's
/// item-NAME.pbm icons), parsed. The same
/// files generate the firmware's PROGMEM data (Hardware/tiltserial/assets.h)
/// and the host's copy, compiled in (EmbeddedArt.swift): no resource bundle to
/// find at run time, no Foundation in the host.
public enum TiltAssets {
    /// Why the shipped assets could not be loaded: one line naming the file.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        /// One line naming the file and what is wrong with it.
        public let description: String
    }

    /// The content tile, the ribbon art and the drawer's items, ready for a `ScreenRenderer`.
    public struct Art: Sendable {
        /// The content tile (the map the viewport scrolls over, 1 bit per pixel).
        public let tile: ContentTile
        /// The ribbon art that slides up from the bottom edge (gray levels as alpha).
        public let ribbon: RibbonArt
        /// The drawer's item icons, in its order, named after their files (item-NAME.pbm).
        public let items: ItemArt
        /// A renderer over this art.
        public var renderer: ScreenRenderer { ScreenRenderer(tile: tile, ribbon: ribbon, items: items) }
    }

    /// The embedded art, parsed once per process (the host asks at start-up, the
    /// mirror, the pins file and the JSON names ask again).
    public static func load() throws(LoadError) -> Art { try parsed.get() }

    private static let parsed: Result<Art, LoadError> = {
        do throws(LoadError) { return .success(try parse()) } catch { return .failure(error) }
    }()

    /// The drawer's item names, in icon order, without parsing any art.
    public static let itemNames: [String] = itemPBMs.map { name(ofItemFile: $0.0) }

    private static func name(ofItemFile file: String) -> String {
        String(file.dropFirst("item-".count).dropLast(".pbm".count))
    }

    private static func parse() throws(LoadError) -> Art {
        let tileBytes = bytes(of: mapTilePBM)
        let ribbonBytes = bytes(of: ribbonPGM)
        do {
            let tile = try ContentTile(bitmap: PBM.parse(tileBytes))
            let ribbon = try RibbonArt(mask: PGM.parse(ribbonBytes))
            var names: [String] = [], icons: [Bitmap] = []
            for (file, text) in itemPBMs {
                names.append(name(ofItemFile: file))
                icons.append(try PBM.parse(bytes(of: text)))
            }
            return Art(tile: tile, ribbon: ribbon, items: try ItemArt(names: names, icons: icons))
        } catch let error as NetpbmError {
            throw LoadError(description: "bundled asset is malformed (\(error)); rebuild from a clean checkout")
        } catch let error as ArtError {
            throw LoadError(description: "bundled asset is unusable (\(error)); rebuild from a clean checkout")
        } catch {
            throw LoadError(description: "bundled asset: \(error)")
        }
    }

    /// The content tile (loaded once; traps only if the package's own resources are broken).
    public static let tile: ContentTile = loaded.tile
    /// The ribbon art (loaded once; traps only if the package's own resources are broken).
    public static let ribbon: RibbonArt = loaded.ribbon
    /// The drawer's items (loaded once; traps only if the package's own resources are broken).
    public static let items: ItemArt = loaded.items

    private static let loaded: Art = {
        do { return try load() } catch { fatalError("TiltAssets: \(error)") }
    }()

    private static func bytes(of text: StaticString) -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
