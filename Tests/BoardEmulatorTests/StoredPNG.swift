/// The grey pixels of a PNG as `PNGEncoder` writes it (8-bit grey, stored
/// deflate blocks, no filters); its own tests check the format in full
/// (TiltDisplayTests' PNGTests). nil for anything else.
enum StoredPNG {
    static func grey(_ png: [UInt8]) -> (width: Int, height: Int, pixels: [UInt8])? {
        func be32(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
        guard png.count > 8 else { return nil }
        var at = 8, idat: [UInt8] = [], width = 0, height = 0
        while at + 8 <= png.count {
            let length = be32(at), type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            guard at + 12 + length <= png.count else { return nil }
            if type == "IHDR" { (width, height) = (be32(at + 8), be32(at + 12)) }
            if type == "IDAT" { idat += png[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        var raw: [UInt8] = [], i = 2, final = false
        while !final, i + 5 <= idat.count {
            final = idat[i] & 1 == 1
            let length = Int(idat[i + 1]) | Int(idat[i + 2]) << 8
            raw += idat[(i + 5)..<min(idat.count, i + 5 + length)]
            i += 5 + length
        }
        guard width > 0, raw.count == (width + 1) * height else { return nil }
        var pixels: [UInt8] = []
        for y in 0..<height { pixels += raw[(y * (width + 1) + 1)..<((y + 1) * (width + 1))] }
        return (width, height, pixels)
    }
}
