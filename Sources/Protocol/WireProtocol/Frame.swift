import TiltCore

/// Any frame of protocol version 1. SAMPLE carries its time as a
/// `TimedSample`: the 24-bit `t_us` as sent when one frame is parsed alone
/// (`parse`, `decode(wire:)`), unwrapped to 64 bits when `FrameDecoder`
/// delivers it from a stream; encoding sends the low 24 bits either way.
public enum Frame: Hashable, Sendable {
    /// HELLO (0x01), board → host.
    case hello(HelloFrame)
    /// SAMPLE (0x02), board → host: sequence, board time and counts.
    case sample(TimedSample)
    /// PONG (0x03), board → host.
    case pong(PongFrame)
    /// READY (0x04), board → host.
    case ready(ReadyFrame)
    /// PARTS (0x05), board → host.
    case parts(PartsFrame)
    /// OFFSETS (0x10), host → board.
    case offsets(OffsetsFrame)
    /// HOST_HELLO (0x11), host → board.
    case hostHello(HostHelloFrame)
    /// PING (0x12), host → board.
    case ping(PingFrame)
    /// CONFIGURE (0x13), host → board.
    case configure(ConfigureFrame)
    /// DRAWER (0x14), host → board.
    case drawer(DrawerFrame)
    /// PIN (0x15), host → board.
    case pin(PinFrame)
    /// SYNC (0x16), host → board.
    case sync(SyncFrame)
    /// DESCRIBE (0x17), host → board.
    case describe(DescribeFrame)
    /// DISPLAY (0x18), host → board.
    case display(DisplayFrame)

    /// Why a payload is not a frame. Each maps to one `DecoderCounters` field.
    public enum ParseError: Error, Hashable, Sendable {
        /// Fewer than 3 bytes: framing error.
        case tooShort
        /// CRC over type, body and CRC is not 0.
        case crcMismatch
        /// A type this version does not know: counted and skipped.
        case unknownType(UInt8)
        /// Body length does not match the type: framing error.
        case wrongBodyLength(FrameType, Int)
    }

    /// Parses one COBS-decoded payload (type, body, big-endian CRC).
    @inlinable public static func parse(payload: UnsafeRawBufferPointer) -> Result<Frame, ParseError> {
        guard payload.count >= WireFormat.minPayloadCount else { return .failure(.tooShort) }
        guard CRC16.checksum(payload) == 0 else { return .failure(.crcMismatch) }
        guard let type = FrameType(rawValue: payload[0]) else { return .failure(.unknownType(payload[0])) }
        let bodyCount = payload.count - WireFormat.minPayloadCount
        guard bodyCount == type.bodyCount else { return .failure(.wrongBodyLength(type, bodyCount)) }
        let body = UnsafeRawBufferPointer(rebasing: payload[1..<(1 + bodyCount)])
        return .success(Frame(type: type, body: body))
    }

    /// Builds the frame of `type` from a body of the right length.
    @inlinable public init(type: FrameType, body: UnsafeRawBufferPointer) {
        switch type {
        case .hello: self = .hello(HelloFrame(body: body))
        case .sample: self = .sample(SampleFrame(body: body).timed)
        case .pong: self = .pong(PongFrame(body: body))
        case .ready: self = .ready(ReadyFrame(body: body))
        case .parts: self = .parts(PartsFrame(body: body))
        case .offsets: self = .offsets(OffsetsFrame(body: body))
        case .hostHello: self = .hostHello(HostHelloFrame(body: body))
        case .ping: self = .ping(PingFrame(body: body))
        case .configure: self = .configure(ConfigureFrame(body: body))
        case .drawer: self = .drawer(DrawerFrame(body: body))
        case .pin: self = .pin(PinFrame(body: body))
        case .sync: self = .sync(SyncFrame(body: body))
        case .describe: self = .describe(DescribeFrame(body: body))
        case .display: self = .display(DisplayFrame(body: body))
        }
    }

    /// Parses one frame's wire bytes (COBS, with or without the trailing delimiter).
    /// Allocation-free path: `FrameDecoder`. This one is for tests and tools.
    public static func decode(wire bytes: [UInt8]) -> Result<Frame, ParseError>? {
        var encoded = bytes
        if encoded.last == WireFormat.delimiter { encoded.removeLast() }
        guard let payload = COBS.decode(encoded) else { return nil }
        return payload.withUnsafeBytes { parse(payload: $0) }
    }

    /// Appends the frame's wire bytes, delimiter included.
    @inlinable public func encode(into output: inout [UInt8]) {
        switch self {
        case .hello(let frame): frame.encode(into: &output)
        case .sample(let sample): SampleFrame(sample).encode(into: &output)
        case .pong(let frame): frame.encode(into: &output)
        case .ready(let frame): frame.encode(into: &output)
        case .parts(let frame): frame.encode(into: &output)
        case .offsets(let frame): frame.encode(into: &output)
        case .hostHello(let frame): frame.encode(into: &output)
        case .ping(let frame): frame.encode(into: &output)
        case .configure(let frame): frame.encode(into: &output)
        case .drawer(let frame): frame.encode(into: &output)
        case .pin(let frame): frame.encode(into: &output)
        case .sync(let frame): frame.encode(into: &output)
        case .describe(let frame): frame.encode(into: &output)
        case .display(let frame): frame.encode(into: &output)
        }
    }

    /// The frame's wire bytes, delimiter included.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }
}
