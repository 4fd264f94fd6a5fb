/// Writes a parsed JSON value back as compact text (numbers as they were written, members in
/// their order).
package enum JSONText {
    /// `value` as JSON text.
    package static func write(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return value.numberText ?? String(number)
        case .string(let text): return text.escaped(.json)
        case .array(let items): return "[" + items.map(write).joined(separator: ", ") + "]"
        case .object(let members):
            return "{ " + members.map { "\($0.key.escaped(.json)): \(write($0.value))" }.joined(separator: ", ") + " }"
        }
    }
}
