/// Why a bitmap cannot serve as the content tile, an alpha mask as the ribbon
/// art, or a set of icons as the drawer's items. `description` is one line
/// naming the limit that was broken.
public enum ArtError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The content tile's size (pixels) is not a multiple of 8 both ways, or
    /// exceeds `ContentTile.maxWidth` × `ContentTile.maxHeight`.
    case tileSize(width: Int, height: Int)
    /// The ribbon art (pixels) exceeds `RibbonArt.maxWidth` × `RibbonArt.maxHeight`.
    case ribbonSize(width: Int, height: Int)
    /// The drawer's names and icons do not pair up one to one, there are more
    /// than 254 of them, or two names are the same.
    case itemNames(names: Int, icons: Int)
    /// An icon (pixels) is not `ItemArt.size` square.
    case itemSize(name: String, width: Int, height: Int)
    /// An icon has lit pixels in its outer ring, where its halo goes.
    case itemBorder(name: String)

    /// One line for people: which art is wrong and how.
    public var description: String {
        switch self {
        case .tileSize(let width, let height):
            "content tile is \(width)x\(height); width and height must be multiples of 8, at most \(ContentTile.maxWidth)x\(ContentTile.maxHeight)"
        case .ribbonSize(let width, let height):
            "ribbon art is \(width)x\(height); it must be at most \(RibbonArt.maxWidth)x\(RibbonArt.maxHeight)"
        case .itemNames(let names, let icons):
            "drawer items: \(names) names for \(icons) icons; give each of at most 254 icons its own name"
        case .itemSize(let name, let width, let height):
            "drawer item '\(name)' is \(width)x\(height); icons must be \(ItemArt.size)x\(ItemArt.size)"
        case .itemBorder(let name):
            "drawer item '\(name)' has lit pixels on its border; keep the outer pixel ring empty for the halo"
        }
    }
}
