/// A one-bit image, row-major, top row first; `true` is a lit OLED pixel.
public struct Bitmap: Hashable, Sendable {
    /// Columns, pixels (positive).
    public let width: Int
    /// Rows, pixels (positive).
    public let height: Int
    /// One entry per pixel, `width × height`, 0 or 1.
    public private(set) var pixels: [UInt8]

    /// An all-dark bitmap; nil unless both sizes are positive.
    public init?(width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height))!
    }

    /// Nil unless `pixels` holds `width × height` entries (any nonzero value is lit).
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels.map { $0 == 0 ? 0 : 1 }
    }

    /// The pixel at column x, row y; false outside the image.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return false }
            return pixels[y * width + x] != 0
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            pixels[y * width + x] = newValue ? 1 : 0
        }
    }
}
