/// An 8-bit alpha image, row-major, top row first: the ribbon's art. The physics
/// uses it for the recipe's hit test (alpha > 85), the renderer to draw it.
public struct AlphaMask: Hashable, Sendable {
    /// Columns, pixels.
    public let width: Int
    /// Rows, pixels.
    public let height: Int
    /// `width × height` values, row-major: 0 transparent ... 255 opaque.
    public let alpha: [UInt8]

    /// Nil unless `alpha` holds exactly width × height values and both are positive.
    public init?(width: Int, height: Int, alpha: [UInt8]) {
        guard width > 0, height > 0, alpha.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.alpha = alpha
    }

    /// The alpha at column x, row y; 0 outside the art.
    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return alpha[y * width + x]
    }
}
