extension ProtoWireWriter {
    /// A string field.
    package mutating func string(_ field: Int32, _ value: String) {
        tag(field, .lengthDelimited)
        lengthDelimited(Array(value.utf8))
    }

    /// A message field, from its bytes.
    package mutating func message(_ field: Int32, _ bytes: [UInt8]) {
        tag(field, .lengthDelimited)
        lengthDelimited(bytes)
    }

    /// A varint field.
    package mutating func varintField(_ field: Int32, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }
}
