import Foundation

extension JSONNode {
    /// A value read from the objects `JSONSerialization` takes and Swift code writes: dictionaries
    /// with string keys, arrays, strings, numbers (Swift's or `NSNumber`), booleans, `NSNull`, and
    /// optionals (`nil` is `null`); `nil` for anything else. Made with the builders of values made
    /// in code (``JSONNode/string(_:)``, ``JSONNode/object(_:)``…).
    package init?(foundationObject object: Any) {
        let mirror = Mirror(reflecting: object)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else {
                self = .null
                return
            }
            self.init(foundationObject: wrapped)
            return
        }
        switch object {
        case is NSNull:
            self = .null
        case let flag as Bool where type(of: object) == Bool.self:
            self = .bool(flag)
        case let number as NSNumber where type(of: object) is NSNumber.Type:
            // What JSONSerialization gives: a boolean is an NSNumber of type `c` on Apple platforms.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else if let integer = Int(exactly: number.doubleValue), "\(integer)" == number.stringValue {
                self = .number(integer)
            } else {
                guard number.doubleValue.isFinite else { return nil }
                self = .number(number.doubleValue)
            }
        case let integer as any BinaryInteger:
            self = Int(exactly: integer).map { .number($0) } ?? .number(Double(integer))
        case let number as Double:
            guard number.isFinite else { return nil }
            self = .number(number)
        case let number as Float:
            guard number.isFinite else { return nil }
            self = .number(Double(number))
        case let text as String:
            self = .string(text)
        case let dictionary as [String: Any]:
            var members: [String: JSONNode] = [:]
            for (key, value) in dictionary {
                guard let member = JSONNode(foundationObject: value) else { return nil }
                members[key] = member
            }
            self = .object(members)
        case let array as [Any]:
            var items: [JSONNode] = []
            for value in array {
                guard let item = JSONNode(foundationObject: value) else { return nil }
                items.append(item)
            }
            self = .array(items)
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
