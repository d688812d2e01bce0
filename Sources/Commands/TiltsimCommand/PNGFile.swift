import CLibPNG
import Foundation
import SerialIO
import TiltDisplay
import TiltExitStatus

/// The board's screen as a PNG file: written beside it, then renamed, so a
/// reader never sees half a file.
enum PNGFile {
    /// Fails (one line naming the fix) unless a file can be created at `path`'s temporary name.
    static func checkWritable(_ path: String) throws(CommandFailure) {
        let temporary = path + ".tmp"
        if let error = FileSystem.touch(temporary) {
            throw .cannotCreate("\(path): cannot write a PNG there (\(error)); pick a writable directory")
        }
        FileSystem.remove(temporary)
    }

    /// `lit`: the gray level of a lit pixel (the display's contrast as brightness).
    static func write(_ screen: Screen, to path: String, scale: Int = 4, lit: UInt8 = 0xFF) throws(CommandFailure) {
        try write(PNGEncoder.encode(screen, scale: scale, lit: lit), to: path)
    }

    /// Encoded PNG bytes to `path`, through a temporary file beside it (SerialIO's AtomicFile).
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        guard case .success = AtomicFile.replace(path, with: bytes) else {
            throw .cannotCreate("\(path): cannot write the PNG; check the directory exists and is writable")
        }
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
