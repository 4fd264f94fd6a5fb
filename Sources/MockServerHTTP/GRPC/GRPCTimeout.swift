/// gRPC's `grpc-timeout` header: 1 to 8 ASCII digits and a unit, `H` hours, `M` minutes, `S`
/// seconds, `m` milliseconds, `u` microseconds, `n` nanoseconds (`100m`, `5S`). Pure code.
package enum GRPCTimeout {
    /// The header's name.
    package static let header = "grpc-timeout"

    /// The time `value` gives.
    ///
    /// - Throws: ``GRPCTimeoutError`` naming the value and the fault (no digits, more than 8, a
    ///   character that is not a digit, a missing or unknown unit).
    package static func parse(_ value: String) throws(GRPCTimeoutError) -> Duration {
        func fail(_ reason: String) -> GRPCTimeoutError { GRPCTimeoutError(value: value, reason: reason) }
        guard let unit = value.last else { throw fail("empty, expected digits and a unit such as 100m") }
        let digits = value.dropLast()
        if unit.isASCII, unit.isNumber { throw fail("the unit is missing after the digits (H M S m u n)") }
        guard !digits.isEmpty else { throw fail("no digits before the unit") }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw fail("\"\(digits)\" is not a number of ASCII digits") }
        guard digits.count <= 8 else { throw fail("at most 8 digits, not \(digits.count)") }
        let amount = Int64(digits)!
        switch unit {
        case "H": return .seconds(amount * 3600)
        case "M": return .seconds(amount * 60)
        case "S": return .seconds(amount)
        case "m": return .milliseconds(amount)
        case "u": return .microseconds(amount)
        case "n": return .nanoseconds(amount)
        default: throw fail("the unit must be one of H M S m u n, not \"\(unit)\"")
        }
    }
}
