/// Why an `application/grpc-web-text` body is not base64: each case names where.
package enum GRPCWebTextError: Error, Equatable, CustomStringConvertible {
    /// The body's length is not a whole number of 4-character groups.
    case incompleteGroup(length: Int)
    /// The byte at `offset` is not one of base64's 64 characters nor `=`.
    case notBase64(offset: Int, byte: UInt8)
    /// A `=` at `offset` stands where data must be (in a group's first two places, or before data).
    case misplacedPadding(offset: Int)

    package var description: String {
        switch self {
        case .incompleteGroup(let length):
            "grpc-web-text body: \(length) characters, not a whole number of base64's 4-character groups"
        case .notBase64(let offset, let byte):
            "grpc-web-text body: byte \(HTTPSyntax.hex(byte)) at offset \(offset) is not a base64 character"
        case .misplacedPadding(let offset):
            "grpc-web-text body: the \"=\" at offset \(offset) stands where base64 data must be"
        }
    }
}
