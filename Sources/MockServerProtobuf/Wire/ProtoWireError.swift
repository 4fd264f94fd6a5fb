/// Bytes that are not a protobuf message: what is wrong and at which byte offset of the message.
package struct ProtoWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package enum Reason: Sendable, Hashable {
        /// The bytes end inside a tag, a varint, a fixed value or a length-delimited value.
        case truncated
        /// A varint longer than 10 bytes.
        case varintTooLong
        /// A tag with wire type 6 or 7.
        case invalidWireType(UInt8)
        /// A tag whose field number is 0 (or past 2^29 - 1).
        case invalidFieldNumber(UInt64)
        /// A group's end that matches no start, or a start whose end never comes.
        case unbalancedGroup(field: Int32)
        /// Messages nested deeper than the decoder allows.
        case tooDeep(limit: Int)
        /// A field whose wire type is not its type's.
        case wrongWireType(field: String, found: ProtoWireType)
        /// A string field that is not UTF-8.
        case invalidUTF8(field: String)
        /// A type the schema does not have: asked for by name, or named by an `Any`'s type URL.
        case unknownType(String)
        /// A well-known type's value that its JSON form cannot write (a Timestamp past year 9999,
        /// a Duration whose seconds and nanos differ in sign, a `Value` without a kind).
        case invalidValue(type: String, reason: String)
    }

    package var reason: Reason
    /// The offset of the first byte at fault, from the start of the outermost message.
    package var offset: Int

    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package var description: String {
        let what: String
        switch reason {
        case .truncated: what = "the message ends inside a value"
        case .varintTooLong: what = "a varint longer than 10 bytes"
        case .invalidWireType(let type): what = "wire type \(type) does not exist"
        case .invalidFieldNumber(let number): what = "field number \(number) is out of range"
        case .unbalancedGroup(let field): what = "group \(field) does not end where it should"
        case .tooDeep(let limit): what = "messages nested more than \(limit) deep"
        case .wrongWireType(let field, let found): what = "field \(field) came with wire type \(found.rawValue)"
        case .invalidUTF8(let field): what = "field \(field) is not UTF-8"
        case .unknownType(let name): what = "type \(name) is not in the schema"
        case .invalidValue(let type, let reason): what = "a \(type) that JSON cannot write: \(reason)"
        }
        return "\(what) (byte \(offset))"
    }
}
