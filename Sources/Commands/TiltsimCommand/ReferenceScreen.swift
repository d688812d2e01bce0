import CLibPNG
import Foundation
import TiltDisplay

/// A PNG of the board's screen, as `--expect-screen` compares it: any PNG
/// (libpng reads every colour type; transparency is laid on black) whose size
/// is the 128 × 64 screen at a whole scale (1× … 16×, e.g. the 4× that
/// `--screenshot` writes). A scale × scale block is lit when its mean grey is
/// at least `litThreshold` (half the dimmest grey the glass lights a pixel
/// with, contrast 0x00); the lit blocks' mean grey is the brightness the
/// glass must show them at.
struct ReferenceScreen {
    var screen: Screen
    /// The lit pixels' grey (nil when none is lit).
    var brightness: UInt8?

    static let litThreshold = 32

    static func load(_ path: String) throws(TiltsimFailure) -> ReferenceScreen {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .file("\(path): no such reference screen; save one with --screenshot SECONDS:\(path)")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .file("\(path): not a PNG the reader understands (\(message(image))); save one with --screenshot")
        }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        let scale = width / Screen.width
        guard scale >= 1, scale <= 16, width == Screen.width * scale, height == Screen.height * scale else {
            throw .file("\(path) is \(width)×\(height); a reference screen is 128×64 at a whole scale (e.g. 512×256), as --screenshot writes")
        }
        image.format = UInt32(PNG_FORMAT_GRAY)
        var gray = [UInt8](repeating: 0, count: width * height)
        var black = png_color(red: 0, green: 0, blue: 0)
        guard png_image_finish_read(&image, &black, &gray, 0, nil) != 0 else {
            throw .file("\(path): the PNG is damaged (\(message(image))); save it again with --screenshot")
        }
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        var litSum = 0, litCount = 0
        let blockArea = scale * scale
        for y in 0..<Screen.height {
            for x in 0..<Screen.width {
                var sum = 0
                for dy in 0..<scale {
                    let row = (y * scale + dy) * width + x * scale
                    for dx in 0..<scale { sum += Int(gray[row + dx]) }
                }
                if sum >= litThreshold * blockArea {
                    bytes[(y >> 3) * Screen.width + x] |= 1 << (y & 7)
                    litSum += sum
                    litCount += blockArea
                }
            }
        }
        let brightness = litCount == 0 ? nil : UInt8((litSum + litCount / 2) / litCount)
        return ReferenceScreen(screen: Screen(bytes: bytes)!, brightness: brightness)
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
