/// The package's one JSON writer: writes a JSON value as text (numbers as they were written,
/// members in their order).
package enum JSONText {
    /// How the text is laid out.
    package enum Layout: Sendable {
        /// One line with a space after each `,` and `:` and inside an object's braces: `{ "a": [1, 2] }`.
        case spaced
        /// One line without spaces: `{"a":[1,2]}` (the control API's answers).
        case compact
    }

    /// `value` as JSON text, ``Layout/spaced``.
    package static func write(_ value: JSONValue) -> String {
        write(value, layout: .spaced)
    }

    /// `value` as JSON text laid out as `layout`.
    package static func write(_ value: JSONValue, layout: Layout) -> String {
        var text = ""
        write(value, layout: layout, into: &text)
        return text
    }

    /// `value` as the bytes of its JSON text laid out as `layout`.
    package static func bytes(_ value: JSONValue, layout: Layout) -> [UInt8] {
        Array(write(value, layout: layout).utf8)
    }

    /// Appends `value` to `text`: each value is written once, where it goes, so that a deep value
    /// is not copied again at every level around it.
    private static func write(_ value: JSONValue, layout: Layout, into text: inout String) {
        let comma = layout == .spaced ? ", " : ","
        let colon = layout == .spaced ? ": " : ":"
        switch value.kind {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += value.numberText ?? String(number)
        case .string(let string): text += string.escaped(.json)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += comma }
                write(item, layout: layout, into: &text)
            }
            text += "]"
        case .object(let members):
            text += layout == .spaced ? "{ " : "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += comma }
                text += member.key.escaped(.json)
                text += colon
                write(member.value, layout: layout, into: &text)
            }
            text += layout == .spaced ? " }" : "}"
        }
    }
}
