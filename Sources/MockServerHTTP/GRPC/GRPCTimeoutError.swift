/// Why a `grpc-timeout` header is not a timeout: the value, and what is wrong with it.
package struct GRPCTimeoutError: Error, Equatable, CustomStringConvertible {
    /// The header's value.
    package let value: String
    /// What is wrong, such as `the unit must be one of H M S m u n`.
    package let reason: String

    package var description: String { "grpc-timeout \"\(value)\": \(reason)" }
}
