/// The wire type in a field's tag (its low 3 bits): how the value after the tag is laid out.
package enum ProtoWireType: UInt8, Sendable, Hashable {
    /// A base-128 varint: int32, int64, uint32, uint64, sint32, sint64, bool, enum.
    case varint = 0
    /// 8 bytes, little-endian: fixed64, sfixed64, double.
    case fixed64 = 1
    /// A varint length, then that many bytes: string, bytes, messages, packed repeated fields.
    case lengthDelimited = 2
    /// proto2's group start (deprecated).
    case startGroup = 3
    /// proto2's group end.
    case endGroup = 4
    /// 4 bytes, little-endian: fixed32, sfixed32, float.
    case fixed32 = 5
}
