import TiltCore
import TiltDisplay

/// The shipped art (Resources/map-tile.pbm and ribbon.pgm), parsed. The same
/// files generate the firmware's PROGMEM data (Hardware/tiltserial/assets.h)
/// and the host's copy, compiled in (EmbeddedArt.swift): no resource bundle to
/// find at run time, no Foundation in the host.
public enum TiltAssets {
    /// Why the shipped assets could not be loaded: one line naming the file.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The content tile and the ribbon art, ready for a `FrameRenderer`.
    public struct Art: Sendable {
        public let tile: ContentTile
        public let ribbon: RibbonArt
        /// A renderer over this art.
        public var renderer: FrameRenderer { FrameRenderer(tile: tile, ribbon: ribbon) }
    }

    /// Parses the embedded art.
    public static func load() throws(LoadError) -> Art {
        let tileBytes = bytes(of: mapTilePBM)
        let ribbonBytes = bytes(of: ribbonPGM)
        do {
            let tile = try ContentTile(bitmap: PBM.parse(tileBytes))
            let ribbon = try RibbonArt(mask: PGM.parse(ribbonBytes))
            return Art(tile: tile, ribbon: ribbon)
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

    private static let loaded: Art = {
        do { return try load() } catch { fatalError("TiltAssets: \(error)") }
    }()

    private static func bytes(of text: StaticString) -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
