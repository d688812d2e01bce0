/// The drawer's item icons (docs/display.md, "Item icons"): 16 × 16 one-bit
/// images, kept as page-layout masks like the firmware's PROGMEM copy: *lit*
/// (the icon's pixels) and *drawn* (lit plus a 1-px halo in all eight
/// directions), so an icon over the map is `(map & ~drawn) | lit`: it stands out
/// with a dark outline.
public struct ItemArt: Hashable, Sendable {
    /// Icons are square, this many pixels.
    public static let size = 16
    /// Bytes per icon per mask: 2 pages × 16 columns.
    public static let bytesPerIcon = 32

    /// Each item's name (JSON, `pins list`), in the drawer's order.
    public let names: [String]
    /// Each item's 16 × 16 icon, in the drawer's order.
    public let icons: [Bitmap]
    /// Icon after icon, each 2 pages × 16 columns.
    public let litPages: [UInt8]
    /// Icon after icon, each 2 pages × 16 columns: the icon plus its 1-px halo.
    public let drawnPages: [UInt8]

    /// Items in the drawer.
    public var count: Int { names.count }

    /// No items (a renderer without a drawer).
    public static let none = ItemArt()

    private init() {
        names = []
        icons = []
        litPages = []
        drawnPages = []
    }

    /// Throws unless every icon is 16 × 16 with an empty 1-px border (room for
    /// its halo), at most 254 of them (0xFF means "no item" on the wire), names
    /// distinct, one per icon.
    public init(names: [String], icons: [Bitmap]) throws(ArtError) {
        guard names.count == icons.count, names.count <= 254, Set(names).count == names.count else {
            throw .itemNames(names: names.count, icons: icons.count)
        }
        var lit: [UInt8] = [], drawn: [UInt8] = []
        for (name, icon) in zip(names, icons) {
            guard icon.width == Self.size, icon.height == Self.size else {
                throw .itemSize(name: name, width: icon.width, height: icon.height)
            }
            for i in 0..<Self.size where icon[i, 0] || icon[i, Self.size - 1] || icon[0, i] || icon[Self.size - 1, i] {
                throw .itemBorder(name: name)
            }
            lit += PageLayout.pack(width: Self.size, height: Self.size) { icon[$0, $1] }
            drawn += PageLayout.pack(width: Self.size, height: Self.size) { x, y in
                (-1...1).contains { dx in (-1...1).contains { dy in icon[x + dx, y + dy] } }
            }
        }
        self.names = names
        self.icons = icons
        litPages = lit
        drawnPages = drawn
    }
}
