import CLibPNG
import Foundation
import SerialIO
import TiltDisplay
import TiltExitStatus

/// The board's screen as a PNG file (`OutputFile` writes it), and PNG files read.
enum PNGFile {
    /// `lit`: the gray level of a lit pixel (the display's contrast as brightness).
    static func write(_ screen: Screen, to file: OutputFile, scale: Int = 4, lit: UInt8 = 0xFF) throws(CommandFailure) {
        try file.write(PNGEncoder.encode(screen, scale: scale, lit: lit))
    }

    /// A PNG file's pixels in libpng's simplified `format` (PNG_FORMAT_GRAY, RGBA…),
    /// transparency laid on black; a one-line reason when it cannot be read,
    /// or its size when it has more than `maximumPixels` (read no further).
    static func read(_ path: String, format: UInt32, bytesPerPixel: Int, maximumPixels: Int)
        -> Result<(width: Int, height: Int, pixels: [UInt8]), PNGReadProblem> {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else { return .failure(.notPNG(message(image))) }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width * height <= maximumPixels else { return .failure(.tooLarge(width: width, height: height)) }
        image.format = format
        var pixels = [UInt8](repeating: 0, count: width * height * bytesPerPixel)
        var black = png_color(red: 0, green: 0, blue: 0)
        guard png_image_finish_read(&image, &black, &pixels, 0, nil) != 0 else { return .failure(.damaged(message(image))) }
        return .success((width, height, pixels))
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// Why `PNGFile.read` failed, with libpng's own words.
enum PNGReadProblem: Error {
    case notPNG(String)
    case damaged(String)
    case tooLarge(width: Int, height: Int)
}
