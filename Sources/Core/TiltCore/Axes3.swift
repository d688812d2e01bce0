/// Three values, one per sensor axis.
public struct Axes3<Component: Hashable & Sendable>: Hashable, Sendable {
    /// The x component (board: right; sensor: its X axis).
    public var x: Component
    /// The y component (board: up the screen; sensor: its Y axis).
    public var y: Component
    /// The z component (board: out of the screen; sensor: its Z axis).
    public var z: Component

    /// The three components.
    @inlinable public init(x: Component, y: Component, z: Component) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The component for `axis`.
    @inlinable public subscript(axis: Axis) -> Component {
        get {
            switch axis {
            case .x: x
            case .y: y
            case .z: z
            }
        }
        set {
            switch axis {
            case .x: x = newValue
            case .y: y = newValue
            case .z: z = newValue
            }
        }
    }
}

/// One of the three axes, in the order x, y, z (raw values 0...2).
public enum Axis: Int, CaseIterable, Hashable, Sendable {
    /// The X, Y and Z axes (the MPU-6050's ACCEL_XOUT, _YOUT, _ZOUT order).
    case x, y, z
}
