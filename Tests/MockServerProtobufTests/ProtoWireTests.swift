import MockServerProtobuf
import Testing

@Suite struct ProtoWireTests {
    @Test func varintsZigzagAndFixedValuesRoundTrip() throws {
        var writer = ProtoWireWriter()
        writer.tag(1, .varint)
        writer.varint(300)
        writer.tag(2, .varint)
        writer.varint(UInt64(bitPattern: -1))
        writer.tag(3, .varint)
        writer.varint(ProtoWireWriter.zigzag(-2))
        writer.tag(4, .fixed32)
        writer.fixed32(0xDEAD_BEEF)
        writer.tag(5, .fixed64)
        writer.fixed64(0x0102_0304_0506_0708)
        writer.tag(6, .lengthDelimited)
        writer.lengthDelimited(Array("hé".utf8))
        #expect(Array(writer.bytes.prefix(3)) == [0x08, 0xAC, 0x02])
        var reader = ProtoWireReader(writer.bytes)
        #expect(try reader.tag()! == (1, .varint))
        #expect(try reader.varint() == 300)
        _ = try reader.tag()
        #expect(Int64(bitPattern: try reader.varint()) == -1)
        _ = try reader.tag()
        #expect(ProtoWireReader.zigzag(try reader.varint()) == -2)
        _ = try reader.tag()
        #expect(try reader.fixed32() == 0xDEAD_BEEF)
        _ = try reader.tag()
        #expect(try reader.fixed64() == 0x0102_0304_0506_0708)
        _ = try reader.tag()
        let range = try reader.lengthDelimited()
        #expect(String(decoding: writer.bytes[range], as: UTF8.self) == "hé")
        #expect(try reader.tag() == nil)
    }

    @Test func truncatedAndInvalidInputThrowsWithTheOffset() {
        #expect(throws: ProtoWireError(.truncated, at: 1)) { var r = ProtoWireReader([0x08, 0x80]); _ = try r.tag(); _ = try r.varint() }
        #expect(throws: ProtoWireError(.invalidWireType(7), at: 0)) { var r = ProtoWireReader([0x0F]); _ = try r.tag() }
        #expect(throws: ProtoWireError(.invalidFieldNumber(0), at: 0)) { var r = ProtoWireReader([0x00]); _ = try r.tag() }
        #expect(throws: ProtoWireError(.truncated, at: 1)) { var r = ProtoWireReader([0x0A, 0x05, 0x01]); _ = try r.tag(); _ = try r.lengthDelimited() }
        #expect(throws: ProtoWireError(.varintTooLong, at: 0)) { var r = ProtoWireReader(Array(repeating: 0xFF, count: 11) + [0x01]); _ = try r.varint() }
    }

    @Test func groupsAreSkippedWholeAndAMismatchedEndIsRefused() throws {
        // field 1 start group, field 2 varint 5, field 1 end group, then field 3 varint 1
        var reader = ProtoWireReader([0x0B, 0x10, 0x05, 0x0C, 0x18, 0x01])
        let (field, type) = try #require(try reader.tag())
        #expect(try reader.skip(type, field: field) == 1 ..< 4)
        #expect(try reader.tag()! == (3, .varint))
        var bad = ProtoWireReader([0x0B, 0x14])
        let (badField, badType) = try #require(try bad.tag())
        #expect(throws: ProtoWireError.self) { try bad.skip(badType, field: badField) }
    }
}
