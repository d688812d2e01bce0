/// Three values, one per sensor axis.
public struct Axes3<Component: Hashable & Sendable>: Hashable, Sendable {
    public var x: Component
    public var y: Component
    public var z: Component

    @inlinable public init(x: Component, y: Component, z: Component) {
        self.x = x
        self.y = y
        self.z = z
    }

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

public enum Axis: Int, CaseIterable, Hashable, Sendable {
    case x, y, z
}
