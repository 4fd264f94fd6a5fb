/// The result options of `SEARCH RETURN (…)` (RFC 4731 ESEARCH, RFC 5182 SAVE, both in
/// RFC 9051): which `* ESEARCH` data the session answers, and whether the result is saved as `$`.
package struct IMAPSearchReturn: OptionSet, Hashable, Sendable {
    /// The options as bits.
    package let rawValue: UInt8
    /// The options of `rawValue`'s bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `MIN`: the lowest number found.
    package static let min = IMAPSearchReturn(rawValue: 1 << 0)
    /// `MAX`: the highest number found.
    package static let max = IMAPSearchReturn(rawValue: 1 << 1)
    /// `ALL`: every number found, as a sequence set; what `RETURN ()` asks.
    package static let all = IMAPSearchReturn(rawValue: 1 << 2)
    /// `COUNT`: how many were found.
    package static let count = IMAPSearchReturn(rawValue: 1 << 3)
    /// `SAVE`: keep the result as `$` for later commands (RFC 5182).
    package static let save = IMAPSearchReturn(rawValue: 1 << 4)

    /// The options by their names in a command.
    static let names: [(String, IMAPSearchReturn)] = [("MIN", .min), ("MAX", .max), ("ALL", .all), ("COUNT", .count), ("SAVE", .save)]

    /// Whether a `* ESEARCH` response is sent: not when SAVE is the only option (RFC 5182 §2.4).
    package var answers: Bool { !subtracting(.save).isEmpty }

    /// What SAVE keeps of `found` (ascending numbers): the lowest and or the highest when MIN or
    /// MAX is asked with it, all of them otherwise (RFC 5182 §2.4).
    package func saved(from found: [UInt32]) -> [UInt32] {
        guard contains(.min) || contains(.max), let first = found.first, let last = found.last else { return found }
        var kept: [UInt32] = []
        if contains(.min) { kept.append(first) }
        if contains(.max), !(contains(.min) && first == last) { kept.append(last) }
        return kept
    }
}
