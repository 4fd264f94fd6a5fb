import MockServerCore

/// Bencoding (BitTorrent's BEP 3 encoding) of decoded JSON, the form VOKMockUrlProtocol names a
/// JSON request body by.
///
/// - Strings are `length:bytes`, the length counting UTF-8 bytes.
/// - Integers are `i…e`. A number written with a fraction or an exponent counts when its value is
///   a whole number (`1.0`, `1e3`); any other number has no bencoding.
/// - `true` and `false` are `i1e` and `i0e` (how Foundation's `NSNumber` holds them).
/// - Arrays are `l…e`; objects are `d…e` with keys sorted by their UTF-8 bytes, as BEP 3 requires
///   (a repeated key keeps its last value).
/// - `null` has no bencoding, so a document that holds one has none either.
package enum Bencoding {
    /// The bencoded bytes of `value`, or `nil` when it holds `null` or a number that is not whole.
    package static func encode(_ value: JSONNode) -> [UInt8]? {
        var output: [UInt8] = []
        return append(value, to: &output) ? output : nil
    }

    private static func append(_ value: JSONNode, to output: inout [UInt8]) -> Bool {
        switch value.kind {
        case .string(let text):
            appendString(Array(text.utf8), to: &output)
        case .number:
            guard let literal = value.numberText, let integer = integerDigits(of: literal) else { return false }
            output.append(UInt8(ascii: "i"))
            output.append(contentsOf: integer.utf8)
            output.append(UInt8(ascii: "e"))
        case .bool(let flag):
            output.append(contentsOf: (flag ? "i1e" : "i0e").utf8)
        case .null:
            return false
        case .array(let elements):
            output.append(UInt8(ascii: "l"))
            for element in elements {
                guard append(element, to: &output) else { return false }
            }
            output.append(UInt8(ascii: "e"))
        case .object(let members):
            var latest: [[UInt8]: JSONNode] = [:]
            for member in members { latest[Array(member.key.utf8)] = member.value }
            output.append(UInt8(ascii: "d"))
            for key in latest.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                appendString(key, to: &output)
                guard let member = latest[key], append(member, to: &output) else { return false }
            }
            output.append(UInt8(ascii: "e"))
        }
        return true
    }

    private static func appendString(_ bytes: [UInt8], to output: inout [UInt8]) {
        output.append(contentsOf: String(bytes.count).utf8)
        output.append(UInt8(ascii: ":"))
        output.append(contentsOf: bytes)
    }

    /// The decimal digits of a JSON number literal's value when it is a whole number (`-0` is `0`),
    /// exactly, however large; `nil` otherwise. Exponents past 1,000 are not expanded.
    static func integerDigits(of literal: String) -> String? {
        var text = Substring(literal)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        var exponent = 0
        if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(text[text.index(after: mark)...]), abs(value) <= 1_000 else { return nil }
            exponent = value
            text = text[..<mark]
        }
        var digits = String(text)
        if let point = digits.firstIndex(of: ".") {
            exponent -= digits.distance(from: point, to: digits.endIndex) - 1
            digits.remove(at: point)
        }
        if exponent >= 0 {
            digits += String(repeating: "0", count: exponent)
        } else {
            let dropped = digits.suffix(-exponent)
            guard dropped.allSatisfy({ $0 == "0" }) else { return nil }
            digits = String(digits.dropLast(-exponent))
        }
        let trimmed = digits.drop { $0 == "0" }
        if trimmed.isEmpty { return "0" }
        return (negative ? "-" : "") + trimmed
    }
}
