import TiltCore

/// A frame as `FrameDecoder` delivers it: SAMPLE comes with its board time
/// unwrapped to 64 bits; the others are as on the wire.
public enum DecodedFrame: Hashable, Sendable {
    /// HELLO: the board (re)started.
    case hello(HelloFrame)
    /// SAMPLE with its board time unwrapped to 64-bit µs.
    case sample(TimedSample)
    /// PONG: the answer to a PING.
    case pong(PongFrame)
    /// READY: the board is about to take a new view (or fell idle); only after SYNC 1.
    case ready(ReadyFrame)
    /// PARTS: the sensor and display the board found; only after DESCRIBE.
    case parts(PartsFrame)
    /// OFFSETS (host → board; seen when decoding the host's own output).
    case offsets(OffsetsFrame)
    /// HOST_HELLO (host → board).
    case hostHello(HostHelloFrame)
    /// PING (host → board).
    case ping(PingFrame)
    /// CONFIGURE (host → board).
    case configure(ConfigureFrame)
    /// DRAWER (host → board).
    case drawer(DrawerFrame)
    /// PIN (host → board).
    case pin(PinFrame)
    /// SYNC (host → board).
    case sync(SyncFrame)
    /// DESCRIBE (host → board).
    case describe(DescribeFrame)
    /// DISPLAY (host → board).
    case display(DisplayFrame)
}
