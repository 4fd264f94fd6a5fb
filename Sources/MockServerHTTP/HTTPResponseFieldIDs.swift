/// Which of ``HTTPResponseFieldName/literals`` each of a parsed head's first ``capacity`` fields
/// is named (its bytes exactly the literal, or the literal lower-cased), noted by the response
/// parser as it looks the name up anyway: a proxy classifies such a field once per literal, not
/// by asking its name sets of every field's `String` (an upstream's answer to a recording proxy,
/// for every request). Two words, no allocation; a field past ``capacity``, or of any other
/// name, has no literal.
package struct HTTPResponseFieldIDs: Sendable, Equatable {
    /// How many fields are noted: later ones have no literal.
    package static let capacity = 16
    /// A byte a field, the literal's index plus one (zero: none): fields 0 to 7, then 8 to 15.
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// No field noted.
    package init() {}

    /// The index in ``HTTPResponseFieldName/literals`` of field `index`'s name, or `nil`.
    package subscript(index: Int) -> Int? {
        guard index >= 0, index < Self.capacity else { return nil }
        let byte = Int(truncatingIfNeeded: (index < 8 ? low : high) >> UInt64((index & 7) * 8)) & 0xFF
        return byte == 0 ? nil : byte - 1
    }

    /// Notes that field `index` is named literal `literal` (under 255); past ``capacity``, nothing.
    package mutating func note(_ literal: Int, at index: Int) {
        guard index >= 0, index < Self.capacity, literal >= 0, literal < 255 else { return }
        let bits = UInt64(literal + 1) << UInt64((index & 7) * 8)
        if index < 8 { low |= bits } else { high |= bits }
    }
}
