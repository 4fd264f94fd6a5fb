/// Writes a parsed JSON value back as compact text (numbers as they were written, members in
/// their order).
package enum JSONText {
    /// `value` as JSON text.
    package static func write(_ value: JSONValue) -> String {
        var text = ""
        write(value, into: &text)
        return text
    }

    /// Appends `value` to `text`: each value is written once, where it goes, so that a deep value
    /// is not copied again at every level around it.
    private static func write(_ value: JSONValue, into text: inout String) {
        switch value.kind {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += value.numberText ?? String(number)
        case .string(let string): text += string.escaped(.json)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += ", " }
                write(item, into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{ "
            for (index, member) in members.enumerated() {
                if index > 0 { text += ", " }
                text += member.key.escaped(.json)
                text += ": "
                write(member.value, into: &text)
            }
            text += " }"
        }
    }
}
