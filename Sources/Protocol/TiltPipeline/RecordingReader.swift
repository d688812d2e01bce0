import TiltCore

extension Recording {
    /// One record as the reader hands it over. `bytes` points into the caller's
    /// block or the reader's own buffer: valid only during the call.
    public struct RecordView {
        /// Which way the bytes went, or which marker this is.
        public var direction: Direction
        /// Host receive (or send) time (the file's µs since the run started).
        public var hostTime: HostTime
        /// The record's payload (empty for markers).
        public var bytes: UnsafeRawBufferPointer
        /// Where `bytes` start in the file.
        public var offset: Int
    }

    /// Reads a recording fed in blocks of any size (e.g. 64 KiB read from the
    /// file), so a recording of any length is read in constant memory: a
    /// record inside a block is handed over in place; one split across blocks
    /// is gathered in a buffer sized for the largest record (65546 bytes,
    /// allocated once).
    public struct Reader {
        private static let largestRecord = recordHeaderSize + Int(UInt16.max)

        /// The baud rate from the header, once it has been read.
        public private(set) var baud: UInt32?
        /// Bytes fed so far.
        public private(set) var offset = 0
        /// File offset of the record being gathered (or next to start).
        private var recordStart = headerSize
        private var header: [UInt8] = []
        private var pending: [UInt8] = []
        /// Bytes the record being gathered needs: its header, then header + payload.
        private var need = recordHeaderSize
        private var failure: ReadError?

        /// A reader at the start of a file (expecting the header).
        public init() {
            header.reserveCapacity(headerSize)
        }

        /// Reads `bytes`, calling `record` with every whole record in order.
        public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ record: (RecordView) -> Void) throws(ReadError) {
            if let failure { throw failure }
            var index = 0
            while baud == nil, index < bytes.count {
                let byte = bytes[index]
                if header.count < magic.count && byte != magic[header.count] { try fail(.notARecording) }
                header.append(byte)
                index += 1
                if header.count == headerSize {
                    baud = UInt32(header[8]) | UInt32(header[9]) << 8 | UInt32(header[10]) << 16 | UInt32(header[11]) << 24
                }
            }
            offset += index
            while index < bytes.count {
                let available = bytes.count - index
                if pending.isEmpty && available >= recordHeaderSize {
                    // Whole record in this block: hand it over in place.
                    let (code, micros, length) = Self.headerFields(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + recordHeaderSize)]))
                    let direction = try direction(code)
                    let total = recordHeaderSize + length
                    if available >= total {
                        let payload = UnsafeRawBufferPointer(rebasing: bytes[(index + recordHeaderSize)..<(index + total)])
                        record(RecordView(direction: direction, hostTime: HostTime(micros: micros), bytes: payload, offset: recordStart + recordHeaderSize))
                        index += total
                        offset += total
                        recordStart += total
                        continue
                    }
                }
                if pending.isEmpty { pending.reserveCapacity(Self.largestRecord) }
                let take = min(need - pending.count, available)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                offset += take
                if need == recordHeaderSize && pending.count == recordHeaderSize {
                    let (code, _, length) = pending.withUnsafeBytes { Self.headerFields($0) }
                    _ = try direction(code)
                    need = recordHeaderSize + length
                }
                if pending.count == need {
                    let (code, micros, _) = pending.withUnsafeBytes { Self.headerFields($0) }
                    let direction = try direction(code)
                    let start = recordStart
                    pending.withUnsafeBytes { raw in
                        record(RecordView(direction: direction, hostTime: HostTime(micros: micros), bytes: UnsafeRawBufferPointer(rebasing: raw[recordHeaderSize...]), offset: start + recordHeaderSize))
                    }
                    recordStart += need
                    pending.removeAll(keepingCapacity: true)
                    need = recordHeaderSize
                }
            }
        }

        /// The end of the file: returns how many bytes at the end do not form
        /// a whole record (a cut-short file); throws if the header is incomplete.
        public mutating func finish() throws(ReadError) -> Int {
            if let failure { throw failure }
            guard baud != nil else { try fail(.tooShort(bytes: header.count)) }
            return pending.count
        }

        /// A record header's direction byte, host time and payload length.
        private static func headerFields(_ raw: UnsafeRawBufferPointer) -> (UInt8, UInt64, Int) {
            var micros: UInt64 = 0
            for i in 0..<8 { micros |= UInt64(raw[1 + i]) << (8 * UInt64(i)) }
            return (raw[0], micros, Int(raw[9]) | Int(raw[10]) << 8)
        }

        private mutating func direction(_ code: UInt8) throws(ReadError) -> Direction {
            guard let direction = Direction(rawValue: code) else { try fail(.badDirection(offset: recordStart)) }
            return direction
        }

        private mutating func fail(_ error: ReadError) throws(ReadError) -> Never {
            failure = error
            throw error
        }
    }
}
