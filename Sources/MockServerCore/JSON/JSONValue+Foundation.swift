import Foundation

extension JSONValue {
    /// A value read from the objects `JSONSerialization` takes and Swift code writes: dictionaries
    /// with string keys, arrays, strings, numbers (Swift's or `NSNumber`), booleans, `NSNull`, and
    /// optionals (`nil` is `null`); `nil` for anything else.
    package init?(foundationObject object: Any) {
        let location = JSONValue.Location(line: 1, column: 1)
        let mirror = Mirror(reflecting: object)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else {
                self.init(kind: .null, location: location)
                return
            }
            self.init(foundationObject: wrapped)
            return
        }
        switch object {
        case is NSNull:
            self.init(kind: .null, location: location)
        case let flag as Bool where type(of: object) == Bool.self:
            self.init(kind: .bool(flag), location: location)
        case let number as NSNumber where type(of: object) is NSNumber.Type:
            // What JSONSerialization gives: a boolean is an NSNumber of type `c` on Apple platforms.
            if String(cString: number.objCType) == "c" {
                self.init(kind: .bool(number.boolValue), location: location)
            } else if let integer = Int(exactly: number.doubleValue), "\(integer)" == number.stringValue {
                self.init(kind: .number(number.doubleValue), location: location, numberText: "\(integer)")
            } else {
                guard number.doubleValue.isFinite else { return nil }
                self.init(kind: .number(number.doubleValue), location: location)
            }
        case let integer as any BinaryInteger:
            self.init(kind: .number(Double(integer)), location: location, numberText: "\(integer)")
        case let number as Double:
            guard number.isFinite else { return nil }
            self.init(kind: .number(number), location: location)
        case let number as Float:
            guard number.isFinite else { return nil }
            self.init(kind: .number(Double(number)), location: location)
        case let text as String:
            self.init(kind: .string(text), location: location)
        case let dictionary as [String: Any]:
            var members: [Member] = []
            for (key, value) in dictionary {
                guard let member = JSONValue(foundationObject: value) else { return nil }
                members.append(Member(key: key, keyLocation: location, value: member))
            }
            self.init(kind: .object(members), location: location)
        case let array as [Any]:
            var items: [JSONValue] = []
            for value in array {
                guard let item = JSONValue(foundationObject: value) else { return nil }
                items.append(item)
            }
            self.init(kind: .array(items), location: location)
        default:
            return nil
        }
    }

    /// The value as `JSONSerialization` gives one: `[String: Any]`, `[Any]`, `String`, `NSNumber`
    /// (integers exactly, when they fit), `Bool` and `NSNull`.
    package var foundationObject: Any {
        switch kind {
        case .null: NSNull()
        case .bool(let flag): flag
        case .string(let text): text
        case .number(let number):
            if let text = numberText, let integer = Int(text) { NSNumber(value: integer) } else { NSNumber(value: number) }
        case .array(let items): items.map(\.foundationObject)
        case .object(let members):
            members.reduce(into: [String: Any]()) { object, member in object[member.key] = member.value.foundationObject }
        }
    }
}
