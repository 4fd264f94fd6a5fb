import MockServerCore
import MockServerProtobuf
import Testing

@Suite struct ProtoJSONPatternTests {
    let codec = RouteGuideSchema.codec

    func json(_ text: String) throws -> JSONNode { try JSONReader.parse(Array(text.utf8), options: .strict) }

    /// The bytes of a Features message written as JSON.
    func message(_ text: String) throws -> [UInt8] { try codec.binary(fromJSON: try json(text), type: "routeguide.Features") }

    func mismatch(_ pattern: String, _ message: String) throws -> String? {
        let compiled = try codec.pattern(try json(pattern), type: "routeguide.Features")
        return try codec.mismatch(of: compiled, inBinary: try self.message(message))?.description
    }

    @Test func givenFieldsMatchAndOthersAreIgnored() throws {
        let feature = #"{"features": [{"name": "a", "location": {"latitude": 5, "longitude": 6}}], "big": "12", "color": "RED"}"#
        #expect(try mismatch(#"{"color": "RED"}"#, feature) == nil)
        #expect(try mismatch(#"{"features": [{"location": {"latitude": 5}}]}"#, feature) == nil)
        // Proto names, an enum's number, an int64 as a number: the canonical forms compare.
        #expect(try mismatch(#"{"features": [{"location": {"lat_e7": 0}}], "big": 12, "color": 1}"#, feature) == nil)
        #expect(try mismatch(#"{"features": [{"location": {"latitude": 7}}]}"#, feature) == "$.features[0].location.latitude: expected 7, found 5")
        #expect(try mismatch(#"{"big": "13"}"#, feature) == "$.big: expected \"13\", found \"12\"")
    }

    @Test func aDefaultValueMatchesItsAbsence() throws {
        #expect(try mismatch(#"{"big": 0, "color": "COLOR_UNSPECIFIED", "ids": [], "labels": {}, "features": []}"#, "{}") == nil)
        #expect(try mismatch(#"{"features": [{"name": "", "location": {"latitude": 0}}]}"#, #"{"features": [{}]}"#) == nil)
        #expect(try mismatch(#"{"features": [{"location": {"latitude": 1}}]}"#, #"{"features": [{}]}"#) == "$.features[0].location.latitude: expected 1, found absent")
        #expect(try mismatch(#"{"at": "1970-01-01T00:00:00Z", "code": null}"#, "{}") == nil)
        #expect(try mismatch(#"{"at": "1970-01-01T00:00:01Z"}"#, "{}") == "$.at: expected \"1970-01-01T00:00:01Z\", found absent")
    }

    @Test func arraysMatchWholeAndMapsByTheKeysGiven() throws {
        let message = #"{"ids": [1, 2], "labels": {"a": 1, "b": 2}}"#
        #expect(try mismatch(#"{"ids": [1, 2]}"#, message) == nil)
        #expect(try mismatch(#"{"ids": [1]}"#, message) == "$.ids: expected 1 elements, found 2 elements")
        #expect(try mismatch(#"{"ids": [1, 3]}"#, message) == "$.ids[1]: expected 3, found 2")
        #expect(try mismatch(#"{"labels": {"b": 2}}"#, message) == nil)
        #expect(try mismatch(#"{"labels": {"c": 2}}"#, message) == #"$.labels["c"]: expected an entry, found absent"#)
    }

    @Test func structsMatchAsJSON() throws {
        let message = #"{"extra": {"a": {"b": [1, "x"]}, "c": true}}"#
        #expect(try mismatch(#"{"extra": {"a": {"b": [1.0, "x"]}}}"#, message) == nil)
        #expect(try mismatch(#"{"extra": {"a": {"b": [1]}}}"#, message) == "$.extra.a.b: expected 1 elements, found 2 elements")
        #expect(try mismatch(#"{"extra": {"d": 1}}"#, message) == "$.extra.d: expected 1, found absent")
    }

    @Test func aBadPatternIsRefusedWhereItIs() throws {
        #expect(throws: ProtoJSONError(path: "$.features[0].nmae", at: .init(line: 1, column: 16), "routeguide.Feature has no field \"nmae\"")) {
            try codec.pattern(try json(#"{"features": [{"nmae": "x"}]}"#), type: "routeguide.Features")
        }
        #expect(throws: ProtoJSONError(path: "$.ids[0]", at: .init(line: 1, column: 10), "\"x\" is not an integer (int32)")) {
            try codec.pattern(try json(#"{"ids": ["x"]}"#), type: "routeguide.Features")
        }
    }

    @Test func templatesLookUpByEitherNameAndRenderDefaults() throws {
        let bytes = try message(#"{"features": [{"name": "a", "location": {"latitude": 5, "lat_e7": "-3"}}], "labels": {"k": 4}, "extra": {"s": {"t": [1, 2]}}}"#)
        for emit in [false, true] {
            let decoded = try codec.json(fromBinary: bytes, type: "routeguide.Features", emittingDefaults: emit)
            func value(_ path: String) -> String? { codec.templateValue(at: path, in: decoded, type: "routeguide.Features") }
            #expect(value("features.0.location.latitude") == "5")
            #expect(value("features[0].location.lat_e7") == "-3")
            #expect(value("features.0.location.latE7") == "-3")
            #expect(value("features.0.location.longitude") == "0")
            #expect(value("features.0.name") == "a")
            #expect(value("features.0.location") == #"{"latitude":5,"latE7":"-3"}"# || value("features.0.location") == #"{"latitude":5,"longitude":0,"latE7":"-3"}"#)
            #expect(value("color") == "COLOR_UNSPECIFIED")
            #expect(value("big") == "0")
            #expect(value("labels.k") == "4")
            #expect(value("extra.s.t.1") == "2")
            #expect(value("at") == "")
            #expect(value("features.1.name") == nil)
            #expect(value("nope") == nil)
        }
    }
}
