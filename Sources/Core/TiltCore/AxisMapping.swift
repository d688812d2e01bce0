/// How the sensor is mounted: each board axis (x right, y up the screen, z out of
/// the screen) is one sensor axis, possibly negated. Any of the 48 permutations
/// with sign flips is allowed. Text form: "x,y,z" (identity), "-y,x,z" (sensor
/// turned 90°), "x,-y,-z" (sensor upside down). Commas are optional.
public struct AxisMapping: Hashable, Sendable {
    /// Where one board axis comes from: a sensor axis, possibly negated.
    public struct Source: Hashable, Sendable {
        /// The sensor axis read.
        public var axis: Axis
        /// The value is negated ("-y").
        public var negated: Bool
        /// `axis`, negated if `negated`.
        public init(_ axis: Axis, negated: Bool = false) {
            self.axis = axis
            self.negated = negated
        }
    }

    /// Where the board's x (right) comes from.
    public let x: Source
    /// Where the board's y (up the screen) comes from.
    public let y: Source
    /// Where the board's z (out of the screen) comes from.
    public let z: Source

    /// "x,y,z": the sensor mounted with its axes along the board's.
    public static let identity = AxisMapping(validated: Source(.x), Source(.y), Source(.z))

    private init(validated x: Source, _ y: Source, _ z: Source) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Nil unless the three sources name three different sensor axes.
    public init?(x: Source, y: Source, z: Source) {
        guard Set([x.axis, y.axis, z.axis]).count == 3 else { return nil }
        self.init(validated: x, y, z)
    }

    /// Why a text does not name a mapping.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not three axes like "x,y,z" (the text as given).
        case malformed(String)
        /// An axis named twice (the text as given).
        case repeatedAxis(String)

        /// One line naming the fix.
        public var description: String {
            switch self {
            case .malformed(let text):
                "axis mapping '\(text)' is not three axes like 'x,y,z' or '-y,x,z'"
            case .repeatedAxis(let text):
                "axis mapping '\(text)' names an axis twice; use each of x, y, z once"
            }
        }
    }

    /// Parses "x,y,z"-style text (see the type's documentation).
    public init(parsing text: String) throws(ParseError) {
        var sources: [Source] = []
        var negate = false
        for character in text.lowercased() where character != " " && character != "," {
            switch character {
            case "-": if negate { throw .malformed(text) } else { negate = true }
            case "+": if negate { throw .malformed(text) }
            case "x", "y", "z":
                sources.append(Source(character == "x" ? .x : character == "y" ? .y : .z, negated: negate))
                negate = false
            default: throw .malformed(text)
            }
        }
        guard sources.count == 3, !negate else { throw .malformed(text) }
        guard let mapping = AxisMapping(x: sources[0], y: sources[1], z: sources[2]) else {
            throw .repeatedAxis(text)
        }
        self = mapping
    }

    /// Board-frame values from sensor-frame values. Widens first, so negating
    /// -32768 counts is exact.
    @inlinable public func apply(_ sensor: Axes3<Int32>) -> Axes3<Int32> {
        @inline(__always) func pick(_ s: Source) -> Int32 { s.negated ? -sensor[s.axis] : sensor[s.axis] }
        return Axes3(x: pick(x), y: pick(y), z: pick(z))
    }
}

extension AxisMapping: CustomStringConvertible {
    /// The text form, e.g. "-y,x,z"; `init(parsing:)` reads it back.
    public var description: String {
        [x, y, z].map { ($0.negated ? "-" : "") + "\($0.axis)" }.joined(separator: ",")
    }
}
