/// Reads the SampleCSV format (`t_us,ax,ay,az[,gx,gy,gz]`) from a byte stream in
/// chunks of any size, so a file of any length is read in constant memory: no
/// line buffer, no allocation per line (only an error allocates its message).
///
/// - Line endings: LF, CRLF and a lone CR each end a line (line numbers count
///   them so). A UTF-8 byte order mark at the very start is skipped.
/// - Blank lines and lines starting with `#` are skipped; the first other line
///   is a header when it starts with an ASCII letter.
/// - Fields may have spaces or tabs around them and a leading `+` (counts also
///   `-`). `t_us` is whole µs, 0 … 2^53 (`maxTimeMicros`) and never decreasing;
///   counts are -32768 … 32767.
/// - Every line is at most `maxLineBytes` bytes, comments included.
///
/// The first error stops the reader: it names the line and quotes at most 40
/// printable characters, and every later call throws it again.
public struct SampleCSVReader: Sendable {
    /// The largest `t_us`: 2^53 µs (about 285 years), exact as a JSON/double
    /// number, and far enough below UInt64's end that tick arithmetic never nears it.
    public static let maxTimeMicros: UInt64 = 1 << 53
    /// The longest line accepted; a sample line needs well under 100.
    public static let maxLineBytes = 1024

    /// Samples delivered so far (each one's `sequence` is this count, wrapped).
    public private(set) var sampleCount: UInt64 = 0
    /// `t_us` of the first sample; nil before one.
    public private(set) var firstTimeMicros: UInt64?
    /// `t_us` of the last sample; nil before one.
    public private(set) var lastTimeMicros: UInt64?
    /// µs from the first sample to the last (times never go back); nil before one.
    public var spanMicros: UInt64? { firstTimeMicros.flatMap { first in lastTimeMicros.map { $0 - first } } }
    /// Samples whose `t_us` equals the one before: valid, but many of them
    /// mean the tool that wrote the file stopped its clock (`standingTimeHint`).
    public private(set) var repeatedTimeCount: UInt64 = 0
    /// The line being read, from 1.
    public private(set) var lineNumber = 1

    private enum LinePhase: UInt8 { case start, skip, data }
    private enum FieldPhase: UInt8 { case leading, sign, digits, trailing, invalid }

    private static let byteOrderMark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
    private static let names = ["t_us", "ax", "ay", "az", "gx", "gy", "gz"]

    /// BOM bytes matched so far at the start; nil once past it.
    private var bomMatched: Int? = 0
    private var afterCR = false
    private var seenContent = false
    private var linePhase = LinePhase.start
    private var lineLength = 0
    private var lineQuote = QuotedText()

    private var fieldIndex = 0
    private var fieldPhase = FieldPhase.leading
    private var negative = false
    private var magnitude: UInt64 = 0
    private var fieldQuote = QuotedText()
    private var time: UInt64 = 0
    private var ax: Int16 = 0, ay: Int16 = 0, az: Int16 = 0, gx: Int16 = 0, gy: Int16 = 0, gz: Int16 = 0
    /// The first field on this line that is not a valid value, and its text.
    private var badField: Int?
    private var badQuote = QuotedText()
    /// The bad t_us was a well-formed number, only too large.
    private var badTimeTooLarge = false
    private var failure: SampleCSV.ParseError?

    /// A reader at the start of a file (a header or byte order mark may come).
    public init() {}

    /// Reads `bytes`, calling `sample` for each complete sample line.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ sample: (TimedSample) -> Void) throws(SampleCSV.ParseError) {
        if let failure { throw failure }
        var index = 0
        while let matched = bomMatched, index < bytes.count {
            let expected = matched == 0 ? Self.byteOrderMark.0 : matched == 1 ? Self.byteOrderMark.1 : Self.byteOrderMark.2
            if bytes[index] == expected {
                bomMatched = matched == 2 ? nil : matched + 1
                index += 1
            } else {
                try leaveByteOrderMark(sample)
            }
        }
        while index < bytes.count {
            // A plain sample line wholly in this block takes the fast path; anything
            // else (blanks, signs, comments, errors, a line split across blocks) the
            // byte-by-byte one, which gives the same result.
            if linePhase == .start && lineLength == 0, let end = plainLine(bytes, from: index) {
                seenContent = true
                afterCR = false
                try emit(sample)
                index = end  // the line ending is consumed below, which counts the line
            }
            try consume(bytes[index], sample)
            index += 1
        }
    }

    /// Reads `digits,[-]digits,...` (4 or 7 fields) ending in CR or LF inside
    /// `bytes` into the fields, all in range; returns the line ending's index,
    /// or nil (nothing changed) for anything else.
    @inline(__always)
    private mutating func plainLine(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        let count = bytes.count
        var t: UInt64 = 0
        var digits = 0
        while i < count, case let d = bytes[i] &- 0x30, d < 10 {
            t = t &* 10 &+ UInt64(d)
            digits += 1
            i += 1
        }
        guard digits > 0, digits <= 16, t <= Self.maxTimeMicros else { return nil }
        var values: (Int16, Int16, Int16, Int16, Int16, Int16) = (0, 0, 0, 0, 0, 0)
        var fields = 1
        while true {
            guard i < count else { return nil }
            let separator = bytes[i]
            if separator == 0x0A || separator == 0x0D {
                guard fields == 4 || fields == 7 else { return nil }
                break
            }
            guard separator == UInt8(ascii: ","), fields < 7 else { return nil }
            i += 1
            let minus = i < count && bytes[i] == UInt8(ascii: "-")
            if minus { i += 1 }
            var v: Int32 = 0
            digits = 0
            while i < count, case let d = bytes[i] &- 0x30, d < 10 {
                v = v &* 10 &+ Int32(d)
                digits += 1
                i += 1
            }
            guard digits > 0, digits <= 5, case let value = minus ? -v : v, let count16 = Int16(exactly: value) else { return nil }
            switch fields {
            case 1: values.0 = count16
            case 2: values.1 = count16
            case 3: values.2 = count16
            case 4: values.3 = count16
            case 5: values.4 = count16
            default: values.5 = count16
            }
            fields += 1
        }
        time = t
        (ax, ay, az, gx, gy, gz) = values
        fieldIndex = fields - 1
        badField = nil
        return i
    }

    /// Reads the last line when the input does not end with a line ending.
    public mutating func finish(_ sample: (TimedSample) -> Void) throws(SampleCSV.ParseError) {
        if let failure { throw failure }
        try leaveByteOrderMark(sample)
        if lineLength > 0 { try endLine(sample) }
    }

    /// A partial byte order mark was not one: read its bytes as ordinary input.
    private mutating func leaveByteOrderMark(_ sample: (TimedSample) -> Void) throws(SampleCSV.ParseError) {
        guard let matched = bomMatched else { return }
        bomMatched = nil
        if matched > 0 { try consume(Self.byteOrderMark.0, sample) }
        if matched > 1 { try consume(Self.byteOrderMark.1, sample) }
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8, _ sample: (TimedSample) -> Void) throws(SampleCSV.ParseError) {
        if byte == 0x0A {  // LF; after a CR it completes a CRLF
            if afterCR { afterCR = false } else { try endLine(sample) }
            return
        }
        afterCR = false
        if byte == 0x0D {
            try endLine(sample)
            afterCR = true
            return
        }
        lineLength += 1
        if lineLength > Self.maxLineBytes {
            try fail("line is longer than \(Self.maxLineBytes) bytes (starts '\(lineQuote.text)'); a sample line is \(SampleCSV.header)")
        }
        lineQuote.append(byte)
        switch linePhase {
        case .data:
            try field(byte)
        case .skip:
            break
        case .start:
            if byte == 0x20 || byte == 0x09 { return }
            if byte == UInt8(ascii: "#") {
                linePhase = .skip
            } else if !seenContent && ((0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)) {
                seenContent = true
                linePhase = .skip  // the header
            } else {
                seenContent = true
                linePhase = .data
                fieldIndex = 0
                badField = nil
                startField()
                try field(byte)
            }
        }
    }

    @inline(__always)
    private mutating func startField() {
        fieldPhase = .leading
        negative = false
        magnitude = 0
        fieldQuote.reset()
    }

    @inline(__always)
    private mutating func field(_ byte: UInt8) throws(SampleCSV.ParseError) {
        if byte == UInt8(ascii: ",") {
            closeField()
            fieldIndex += 1
            startField()
            return
        }
        if fieldIndex > 6 { return }  // surplus fields are only counted
        let blank = byte == 0x20 || byte == 0x09
        if !(blank && fieldPhase == .leading) { fieldQuote.append(byte) }
        switch byte {
        case 0x30...0x39:
            switch fieldPhase {
            case .leading, .sign, .digits:
                fieldPhase = .digits
                // Past 2^59 the value is out of every range; stop growing (no overflow).
                if magnitude <= 1 << 59 { magnitude = magnitude * 10 + UInt64(byte - 0x30) }
            case .trailing, .invalid:
                fieldPhase = .invalid
            }
        case 0x20, 0x09:
            switch fieldPhase {
            case .leading, .trailing, .invalid: break
            case .sign: fieldPhase = .invalid
            case .digits: fieldPhase = .trailing
            }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            if fieldPhase == .leading {
                fieldPhase = .sign
                negative = byte == UInt8(ascii: "-")
            } else {
                fieldPhase = .invalid
            }
        default:
            fieldPhase = .invalid
        }
    }

    private mutating func closeField() {
        guard fieldIndex <= 6 else { return }
        let whole = fieldPhase == .digits || fieldPhase == .trailing
        if fieldIndex == 0 {
            if whole && !negative && magnitude <= Self.maxTimeMicros {
                time = magnitude
            } else if badField == nil {
                badField = 0
                badQuote = fieldQuote
                badTimeTooLarge = whole && !negative
            }
            return
        }
        let value = negative ? -Int64(magnitude) : Int64(magnitude)
        guard whole, let count = Int16(exactly: value) else {
            if badField == nil {
                badField = fieldIndex
                badQuote = fieldQuote
            }
            return
        }
        switch fieldIndex {
        case 1: ax = count
        case 2: ay = count
        case 3: az = count
        case 4: gx = count
        case 5: gy = count
        default: gz = count
        }
    }

    private mutating func endLine(_ sample: (TimedSample) -> Void) throws(SampleCSV.ParseError) {
        if linePhase == .data {
            closeField()
            try emit(sample)
        }
        lineNumber += 1
        linePhase = .start
        lineLength = 0
        lineQuote.reset()
    }

    private mutating func emit(_ sample: (TimedSample) -> Void) throws(SampleCSV.ParseError) {
        let fields = fieldIndex + 1
        guard fields == 4 || fields == 7 else {
            try fail("expected 4 or 7 comma-separated values (\(SampleCSV.header)), found \(fields)")
        }
        if let bad = badField {
            let quote = badQuote.text
            if bad == 0 {
                try fail(badTimeTooLarge
                    ? "t_us '\(quote)' is beyond the largest time, \(Self.maxTimeMicros) µs (2^53, about 285 years)"
                    : "t_us '\(quote)' is not a whole number of microseconds")
            }
            try fail("\(Self.names[bad]) '\(quote)' is not a count from -32768 to 32767")
        }
        if let last = lastTimeMicros, time < last {
            try fail("t_us \(time) goes back in time (previous \(last))")
        }
        let gyro = fields == 7 ? Axes3(x: gx, y: gy, z: gz) : Axes3(x: 0, y: 0, z: 0)
        let raw = RawSample(accel: Axes3(x: ax, y: ay, z: az), temperature: 0, gyro: gyro)
        sample(TimedSample(timeMicros: time, sequence: UInt8(truncatingIfNeeded: sampleCount), raw: raw))
        if time == lastTimeMicros { repeatedTimeCount += 1 }
        sampleCount += 1
        if firstTimeMicros == nil { firstTimeMicros = time }
        lastTimeMicros = time
    }

    private mutating func fail(_ reason: String) throws(SampleCSV.ParseError) -> Never {
        let error = SampleCSV.ParseError(line: lineNumber, reason: reason)
        failure = error
        throw error
    }

    /// A warning for a file whose time stands still: at least a tenth of its
    /// samples (and more than one) repeat the `t_us` before them, so the physics
    /// sees them as one moment. A time stuck at 2^31 − 1 or 2^32 − 1 is a writer
    /// that clamps to 32 bits (awk's `printf "%d"` in mawk does). Nil otherwise.
    public var standingTimeHint: String? {
        guard repeatedTimeCount > 1, repeatedTimeCount * 10 >= sampleCount else { return nil }
        var text = "\(repeatedTimeCount) of \(sampleCount) samples repeat the t_us before them, so the physics sees them as one moment"
        switch lastTimeMicros {
        case UInt64(Int32.max):
            text += "; \(Int32.max) is 2^31 − 1, where a 32-bit number stops: write t_us with 64 bits (in awk, printf \"%.0f\", not \"%d\")"
        case UInt64(UInt32.max):
            text += "; \(UInt32.max) is 2^32 − 1, where a 32-bit number stops: write t_us with 64 bits"
        default:
            text += "; give each sample the time it was read"
        }
        return text
    }
}
