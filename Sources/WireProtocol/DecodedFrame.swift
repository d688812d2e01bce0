import TiltCore

/// A frame as `FrameDecoder` delivers it: SAMPLE comes with its board time
/// unwrapped to 64 bits; the others are as on the wire.
public enum DecodedFrame: Hashable, Sendable {
    case hello(HelloFrame)
    case sample(TimedSample)
    case pong(PongFrame)
    case offsets(OffsetsFrame)
    case hostHello(HostHelloFrame)
    case ping(PingFrame)
    case configure(ConfigureFrame)
    case drawer(DrawerFrame)
    case pin(PinFrame)
}
