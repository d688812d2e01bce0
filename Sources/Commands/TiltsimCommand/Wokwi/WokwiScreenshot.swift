import CLibPNG
import Foundation
import TiltDisplay
import TiltExitStatus

/// An SSD1306 screenshot as Wokwi's part makes and compares it: a 128 × 64
/// PNG read as RGBA, every pixel lit (255, 255, 255, 255) or dark
/// (0, 0, 0, 255). wokwi-cli compares the bytes; a pixel of any other colour
/// could never match, so it is refused before the run, with its place.
struct WokwiScreenshot {
    var screen: Screen

    static func load(_ path: String) -> Result<WokwiScreenshot, WokwiProblem> {
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(WokwiProblem("failed to read comparison file for screenshot: \(path); save one with save-to"))
        }
        let sizeProblem = { (width: Int, height: Int) in
            WokwiProblem("comparison file for screenshot (\(path)) has a different size (\(width)x\(height)) than the part's screen (128x64)")
        }
        let rgba: [UInt8]
        // PNG_FORMAT_RGBA is a macro Swift does not import.
        switch PNGFile.read(path, format: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA), bytesPerPixel: 4, maximumPixels: Screen.width * Screen.height) {
        case .success(let image) where image.width == Screen.width && image.height == Screen.height: rgba = image.pixels
        case .success(let image): return .failure(sizeProblem(image.width, image.height))
        case .failure(.tooLarge(let width, let height)): return .failure(sizeProblem(width, height))
        case .failure(.notPNG): return .failure(WokwiProblem("\(path): not a PNG; save one with take-screenshot's save-to"))
        case .failure(.damaged): return .failure(WokwiProblem("\(path): the PNG is damaged; save it again with save-to"))
        }
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        for y in 0..<Screen.height {
            for x in 0..<Screen.width {
                let i = (y * Screen.width + x) * 4
                let pixel = rgba[i..<(i + 4)]
                if pixel.elementsEqual([0xFF, 0xFF, 0xFF, 0xFF]) {
                    bytes[(y >> 3) * Screen.width + x] |= 1 << (y & 7)
                } else if !pixel.elementsEqual([0, 0, 0, 0xFF]) {
                    return .failure(WokwiProblem("\(path): pixel x,y=(\(x),\(y)) is neither lit (255,255,255,255) nor dark (0,0,0,255): it can never match; save the reference with save-to"))
                }
            }
        }
        return .success(WokwiScreenshot(screen: Screen(bytes: bytes)!))
    }

    /// Writes `screen` as Wokwi would.
    static func write(_ screen: Screen, to file: OutputFile) throws(CommandFailure) {
        try file.write(PNGEncoder.encodeRGBA(screen))
    }
}
