import TiltCore

/// The ribbon art with its alpha sorted into what the frame draws
/// (docs/display.md): alpha > 170 lit, 86...170 dark edge, ≤ 85 transparent.
public struct RibbonArt: Hashable, Sendable {
    /// At or below this alpha a pixel is transparent (the recipe's hit-test threshold).
    public static let transparentMax: UInt8 = 85
    /// Above this alpha a pixel is lit; between the two it is drawn dark.
    public static let edgeMax: UInt8 = 170
    /// The widest ribbon art accepted, pixels.
    public static let maxWidth = 128
    /// The tallest ribbon art accepted, pixels.
    public static let maxHeight = 128

    /// The art's alpha, as loaded (0 transparent ... 255 opaque).
    public let mask: AlphaMask
    /// Page layout (`ceil(height / 8)` pages × width), bit set where the art draws (alpha > 85).
    public let drawnPages: [UInt8]
    /// Page layout, bit set where the art is lit (alpha > 170).
    public let litPages: [UInt8]

    /// Art width, pixels.
    public var width: Int { mask.width }
    /// Art height, pixels.
    public var height: Int { mask.height }
    /// 8-row pages the art spans (height / 8, rounded up).
    public var pageCount: Int { (mask.height + 7) / 8 }

    /// Throws if the art is larger than 128 × 128 (the firmware keeps its sizes in bytes).
    public init(mask: AlphaMask) throws(ArtError) {
        guard mask.width <= Self.maxWidth, mask.height <= Self.maxHeight else {
            throw .ribbonSize(width: mask.width, height: mask.height)
        }
        self.mask = mask
        self.drawnPages = PageLayout.pack(width: mask.width, height: mask.height) { mask[$0, $1] > Self.transparentMax }
        self.litPages = PageLayout.pack(width: mask.width, height: mask.height) { mask[$0, $1] > Self.edgeMax }
    }
}
