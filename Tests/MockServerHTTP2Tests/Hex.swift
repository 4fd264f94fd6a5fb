import MockServerHTTP2

/// Bytes from the RFCs' hex dumps (`"8286 8441"`): spaces ignored.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count.isMultiple(of: 2), "odd hex: \(text)")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Header fields from `name: value` pairs.
func fields(_ pairs: KeyValuePairs<String, String>) -> [HPACKHeader] {
    pairs.map { HPACKHeader($0.key, $0.value) }
}
