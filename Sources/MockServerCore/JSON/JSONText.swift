/// The package's one JSON writer: writes a JSON value as text (numbers as they were written,
/// members in their order, unless the layout is ``Layout/canonical``).
package enum JSONText {
    /// How the text is laid out.
    package enum Layout: Sendable {
        /// One line with a space after each `,` and `:` and inside an object's braces:
        /// `{ "a": [1, 2] }` (what response files and endpoints files read back easily).
        case spaced
        /// One line without spaces: `{"a":[1,2]}` (the control API's answers).
        case compact
        /// ``compact`` with the members of every object sorted by key and numbers written by value
        /// (`3.0` as `3`): two texts of the same JSON have one canonical form, for bodies that are
        /// compared or sent (as `JSONSerialization`'s `.sortedKeys`).
        case canonical
    }

    /// `value` as JSON text laid out as `layout`.
    package static func write(_ value: JSONNode, layout: Layout = .spaced) -> String {
        var text = ""
        write(value, layout: layout, into: &text)
        return text
    }

    /// `value` as the bytes of its JSON text laid out as `layout`.
    package static func bytes(_ value: JSONNode, layout: Layout) -> [UInt8] {
        Array(write(value, layout: layout).utf8)
    }

    /// Appends `value` to `text`: each value is written once, where it goes, so that a deep value
    /// is not copied again at every level around it.
    private static func write(_ value: JSONNode, layout: Layout, into text: inout String) {
        let (open, separator, colon, close) = layout == .spaced ? ("{ ", ", ", ": ", " }") : ("{", ",", ":", "}")
        switch value.kind {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number):
            // The canonical form writes a number by its value, so that `3`, `3.0` and `30e-1` agree.
            if layout == .canonical {
                text += Int(exactly: number).map { String($0) } ?? String(number)
            } else {
                text += value.numberText ?? String(number)
            }
        case .string(let string): text += string.escaped(.json)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += separator }
                write(item, layout: layout, into: &text)
            }
            text += "]"
        case .object(let members):
            guard !members.isEmpty else {
                text += "{}"
                return
            }
            text += open
            let ordered = layout == .canonical ? members.sorted { $0.key < $1.key } : members
            for (index, member) in ordered.enumerated() {
                if index > 0 { text += separator }
                text += member.key.escaped(.json)
                text += colon
                write(member.value, layout: layout, into: &text)
            }
            text += close
        }
    }
}
