import CLibPNG
import Foundation
import TiltDisplay
import TiltExitStatus

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

    static func load(_ path: String) throws(CommandFailure) -> ReferenceScreen {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .file("\(path): no such reference screen; save one with --screenshot SECONDS:\(path)")
        }
        let sizeProblem = { (width: Int, height: Int) -> CommandFailure in
            .file("\(path) is \(width)×\(height); a reference screen is 128×64 at a whole scale (e.g. 512×256), as --screenshot writes")
        }
        let width: Int, height: Int, gray: [UInt8]
        switch PNGFile.read(path, format: UInt32(PNG_FORMAT_GRAY), bytesPerPixel: 1, maximumPixels: Screen.width * Screen.height * 256) {
        case .success(let image): (width, height, gray) = image
        case .failure(.notPNG(let why)): throw .file("\(path): not a PNG the reader understands (\(why)); save one with --screenshot")
        case .failure(.damaged(let why)): throw .file("\(path): the PNG is damaged (\(why)); save it again with --screenshot")
        case .failure(.tooLarge(let width, let height)): throw sizeProblem(width, height)
        }
        let scale = width / Screen.width
        guard scale >= 1, scale <= 16, width == Screen.width * scale, height == Screen.height * scale else { throw sizeProblem(width, height) }
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
}
