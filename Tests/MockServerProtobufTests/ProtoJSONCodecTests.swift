import MockServerCore
import MockServerProtobuf
import Testing

@Suite struct ProtoJSONCodecTests {
    let codec = RouteGuideSchema.codec

    func json(_ text: String) throws -> JSONNode { try JSONReader.parse(Array(text.utf8), options: .strict) }

    func compact(_ node: JSONNode) -> String { JSONText.write(node, layout: .compact) }

    @Test func aMessageRoundTripsInFieldNumberOrder() throws {
        let text = #"{"ids": [3, 1], "big": "-9007199254740993", "features": [{"location": {"longitude": -2, "latitude": 1}, "name": "a"}], "labels": {"x": 1}, "color": "RED", "at": "2024-02-29T23:59:59.5Z", "code": 0}"#
        let bytes = try codec.binary(fromJSON: try json(text), type: "routeguide.Features")
        // features (1), labels (2), color (3), big (4), ids packed (5), at (6), code (8) in number order.
        #expect(bytes.first == 0x0A)
        let back = try codec.json(fromBinary: bytes, type: ".routeguide.Features")
        #expect(compact(back) == #"{"features":[{"name":"a","location":{"latitude":1,"longitude":-2}}],"labels":{"x":1},"color":"RED","big":"-9007199254740993","ids":[3,1],"at":"2024-02-29T23:59:59.500Z","code":0}"#)
    }

    @Test func defaultsAreWrittenOnlyWhenAsked() throws {
        let bytes = try codec.binary(fromJSON: try json(#"{"features": [{}]}"#), type: "routeguide.Features")
        #expect(compact(try codec.json(fromBinary: bytes, type: "routeguide.Features")) == #"{"features":[{}]}"#)
        #expect(compact(try codec.json(fromBinary: bytes, type: "routeguide.Features", emittingDefaults: true))
            == #"{"features":[{"name":""}],"labels":{},"color":"COLOR_UNSPECIFIED","big":"0","ids":[]}"#)
    }

    @Test func errorsNameThePathAndThePlace() throws {
        let text = """
        {"features": [{}, {}, {"location": {
            "latitude": 3000000000}}]}
        """
        #expect(throws: ProtoJSONError(path: "$.features[2].location.latitude", at: .init(line: 2, column: 17), "3000000000 is out of range for int32")) {
            try codec.binary(fromJSON: try json(text), type: "routeguide.Features")
        }
        let error = try #require(throws: ProtoJSONError.self) { try codec.binary(fromJSON: try json(text), type: "routeguide.Features") }
        #expect(error.description == "2:17: $.features[2].location.latitude: 3000000000 is out of range for int32")
        #expect(throws: ProtoJSONError(path: "$.features[0].nmae", at: .init(line: 1, column: 16), "routeguide.Feature has no field \"nmae\"")) {
            try codec.binary(fromJSON: try json(#"{"features": [{"nmae": "x"}]}"#), type: "routeguide.Features")
        }
        #expect(throws: ProtoJSONError(path: "$.code", at: .init(line: 1, column: 15), "oneof kind is given twice (\"text\" and \"code\")")) {
            try codec.binary(fromJSON: try json(#"{"text": "a", "code": 1}"#), type: "routeguide.Features")
        }
        #expect(throws: ProtoJSONError(path: "$.color", at: .init(line: 1, column: 11), "\"BLUE\" is not a value of enum routeguide.Color")) {
            try codec.binary(fromJSON: try json(#"{"color": "BLUE"}"#), type: "routeguide.Features")
        }
        #expect(throws: ProtoJSONError(path: "$.at", at: .init(line: 1, column: 8),
                                       "\"2023-02-29T00:00:00Z\" is not an RFC 3339 time from 0001 to 9999 (1972-01-01T10:00:20.021Z)")) {
            try codec.binary(fromJSON: try json(#"{"at": "2023-02-29T00:00:00Z"}"#), type: "routeguide.Features")
        }
        #expect(throws: ProtoJSONError(path: "$.features", at: .init(line: 1, column: 14), "expected an array for repeated field features, found an object")) {
            try codec.binary(fromJSON: try json(#"{"features": {}}"#), type: "routeguide.Features")
        }
        #expect(throws: ProtoJSONError(path: "$", at: .init(line: 1, column: 1), "type routeguide.Nope is not in the schema")) {
            try codec.binary(fromJSON: try json("{}"), type: "routeguide.Nope")
        }
    }

    @Test func depthIsBoundedBothWays() throws {
        func chain(_ depth: Int) -> String {
            var text = #"{"value": 1}"#
            for _ in 1 ..< depth { text = #"{"next": \#(text)}"# }
            return text
        }
        let deepest = try codec.binary(fromJSON: try json(chain(100)), type: "routeguide.Chain")
        #expect(JSONText.write(try codec.json(fromBinary: deepest, type: "routeguide.Chain"), layout: .compact).hasSuffix(#"{"value":1}"# + String(repeating: "}", count: 99)))
        #expect(throws: ProtoJSONError.self) { try codec.binary(fromJSON: try json(chain(101)), type: "routeguide.Chain") }
        // 101 messages deep on the wire: each level wraps the one inside it.
        var bytes: [UInt8] = [0x10, 0x01]
        for _ in 1 ..< 101 {
            var writer = ProtoWireWriter()
            writer.tag(1, .lengthDelimited)
            writer.lengthDelimited(bytes)
            bytes = writer.bytes
        }
        let error = try #require(throws: ProtoWireError.self) { try codec.json(fromBinary: bytes, type: "routeguide.Chain") }
        #expect(error.reason == .tooDeep(limit: 100))
        #expect(bytes[error.offset...] == [0x10, 0x01])
    }

    @Test func readsWhateverPackingAndMergesMessages() throws {
        // ids (packed in the schema) sent unpacked, then packed; location sent twice, merged.
        let bytes: [UInt8] = [0x28, 0x07, 0x2A, 0x02, 0x08, 0x09, 0x0A, 0x08, 0x12, 0x02, 0x08, 0x05, 0x12, 0x02, 0x10, 0x06]
        #expect(compact(try codec.json(fromBinary: Array(bytes[0 ..< 6]), type: "routeguide.Features")) == #"{"ids":[7,8,9]}"#)
        #expect(compact(try codec.json(fromBinary: Array(bytes[6...]), type: "routeguide.Features")) == #"{"features":[{"location":{"latitude":5,"longitude":6}}]}"#)
    }

    @Test func wrongBytesThrowWithTheOffset() {
        #expect(throws: ProtoWireError(.truncated, at: 1)) { try codec.json(fromBinary: [0x0A, 0x05, 0x00], type: "routeguide.Features") }
        #expect(throws: ProtoWireError(.invalidUTF8(field: "name"), at: 1)) { try codec.json(fromBinary: [0x0A, 0x01, 0xFF], type: "routeguide.Feature") }
        #expect(throws: ProtoWireError(.unknownType("routeguide.Nope"), at: 0)) { try codec.json(fromBinary: [], type: "routeguide.Nope") }
    }

    @Test func timesAcrossTheirRange() {
        #expect(ProtoTimeText.timestamp(seconds: 0, nanos: 0) == "1970-01-01T00:00:00Z")
        #expect(ProtoTimeText.timestamp(seconds: -1, nanos: 999_000_000) == "1969-12-31T23:59:59.999Z")
        #expect(ProtoTimeText.timestamp(seconds: ProtoTimeText.minimumSeconds, nanos: 0) == "0001-01-01T00:00:00Z")
        #expect(ProtoTimeText.timestamp(seconds: ProtoTimeText.maximumSeconds, nanos: 1000) == "9999-12-31T23:59:59.000001Z")
        #expect(ProtoTimeText.timestamp(seconds: ProtoTimeText.maximumSeconds + 1, nanos: 0) == nil)
        #expect(ProtoTimeText.timestamp(seconds: 951_782_400, nanos: 1) == "2000-02-29T00:00:00.000000001Z")
        // Every day boundary of four centuries reads back.
        var seconds: Int64 = -12_622_780_800
        while seconds < 12_622_780_800 {
            let text = ProtoTimeText.timestamp(seconds: seconds, nanos: 0)!
            #expect(ProtoTimeText.parseTimestamp(text)! == (seconds, 0))
            seconds += 86_400 * 37
        }
        #expect(ProtoTimeText.parseTimestamp("1970-01-01T01:00:00+01:00")! == (0, 0))
        #expect(ProtoTimeText.parseTimestamp("1900-02-29T00:00:00Z") == nil)
        #expect(ProtoTimeText.parseTimestamp("1970-01-01T00:00:00.Z") == nil)
        #expect(ProtoTimeText.duration(seconds: -1, nanos: -500_000_000) == "-1.500s")
        #expect(ProtoTimeText.duration(seconds: 0, nanos: -1000) == "-0.000001s")
        #expect(ProtoTimeText.duration(seconds: 1, nanos: -1) == nil)
        #expect(ProtoTimeText.parseDuration("-0.5s")! == (0, -500_000_000))
        #expect(ProtoTimeText.parseDuration("1.s") == nil)
        #expect(ProtoTimeText.parseDuration("s") == nil)
    }
}
