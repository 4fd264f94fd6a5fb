/// How ``Swift/String/escaped(_:)`` writes a string: for a person reading a log, or as a literal of
/// a language that a report's snippet is pasted into.
package enum EscapeStyle {
    /// No quotes; CR, LF, tab, `\` and other control characters escaped, such as `\r` and `\u{7f}`.
    case display
    /// A JSON string literal: quoted, with `"`, `\`, CR, LF, tab and other control characters escaped (`\u001b`).
    case json
    /// A Swift string literal: quoted, with `"`, `\`, CR, LF, tab and other control characters escaped (`\u{1b}`).
    case swift
}

extension String {
    /// The string escaped in `style`: the one escaper of logs, reports and generated snippets.
    package func escaped(_ style: EscapeStyle) -> String {
        let quoted = style != .display
        var result = quoted ? "\"" : ""
        result.reserveCapacity(utf8.count + 2)
        for scalar in unicodeScalars {
            switch scalar {
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case "\"" where quoted: result += "\\\""
            case _ where scalar.value < 0x20 || (style == .display && scalar.value == 0x7F):
                let hex = String(scalar.value, radix: 16)
                result += style == .json ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex : "\\u{\(hex)}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return quoted ? result + "\"" : result
    }

    /// The string with CR, LF, tab and other control characters written as escapes (``EscapeStyle/display``).
    package var escapedForDisplay: String { escaped(.display) }
}
