import Foundation
import MockServerCore
@testable import MockServerProtobuf
import Testing
import TestSupport

/// The proto3 JSON mapping's conformance table: each case's JSON (or bytes) read by ``ProtoJSONCodec``
/// and by Python's `protobuf` package (`json_format`, Tests/Python/protojson_conformance.py) on the
/// same schema (Fixtures/conformance.proto and conformance2.proto, compiled by `grpc_tools.protoc`).
///
/// For each JSON case: both accept it or both refuse it; when accepted, MockServer's bytes parse in
/// Python to a message equal to Python's; Python's bytes read by MockServer give Python's
/// `MessageToJson` (compared as JSON values), with and without the fields at their defaults; and
/// MockServer's own bytes read back give the same. For each bytes case: both read them or both
/// refuse them, and the JSON is Python's. Docs/GRPC.md ("JSON mapping") lists the table.
@Suite("Proto JSON conformance against Python's protobuf", .offPool,
       .enabled(if: Tools.hasPythonModule("google.protobuf") && Tools.hasPythonModule("grpc_tools")))
struct ProtoJSONConformanceTests {
    /// One row: JSON text, or bytes in hex, read as `type`.
    struct Case: Sendable {
        let name: String
        let type: String
        let json: String?
        let hex: String?

        init(_ name: String, _ json: String, type: String = all) {
            self.name = name
            self.type = type
            self.json = json
            hex = nil
        }

        init(_ name: String, hex: String, type: String = all) {
            self.name = name
            self.type = type
            json = nil
            self.hex = hex
        }
    }

    static let all = "conformance.AllTypes"
    static let legacy = "conformance2.Legacy"

    /// The table (Docs/GRPC.md, "JSON mapping").
    static let cases: [Case] = [
        // Every scalar type.
        Case("scalars", #"{"fInt32": -5, "fInt64": "-9000000000", "fUint32": 4000000000, "fUint64": "18446744073709551615", "fSint32": -7, "fSint64": "-9223372036854775808", "fFixed32": 4294967295, "fFixed64": "1", "fSfixed32": -2147483648, "fSfixed64": "9223372036854775807", "fFloat": 1.5, "fDouble": 0.1, "fBool": true, "fString": "héllo ☃ 😀", "fBytes": "AAEC/w==", "fEnum": "GREEN"}"#),
        Case("proto field names", #"{"f_int32": 1, "f_string": "x", "opt_int32": 2}"#),
        Case("json_name", #"{"renamed": 5}"#),
        Case("json_name: the lowerCamelCase name is not the field's", #"{"customJson": 5}"#),
        Case("json_name: the proto name", #"{"custom_json": 5}"#),
        Case("int64 max and min as strings", #"{"fInt64": "9223372036854775807", "fSfixed64": "-9223372036854775808", "fUint64": "0"}"#),
        Case("int64 as a number past 2^53", #"{"fInt64": 9007199254740993, "fUint64": 18446744073709551615}"#),
        Case("int32 as a string", #"{"fInt32": "42", "fSint32": "-42"}"#),
        Case("int32 as 1e2", #"{"fInt32": 1e2, "fUint32": 3.0}"#),
        Case("int32 as 1.5", #"{"fInt32": 1.5}"#),
        Case("int32 out of range", #"{"fInt32": 3000000000}"#),
        Case("int32 below range", #"{"fSfixed32": -2147483649}"#),
        Case("uint32 negative", #"{"fUint32": -1}"#),
        Case("int64 past max as a string", #"{"fInt64": "9223372036854775808"}"#),
        Case("uint64 past max", #"{"fUint64": "18446744073709551616"}"#),
        Case("int32 as a word", #"{"fInt32": "abc"}"#),
        Case("int32 as a boolean", #"{"fInt32": true}"#),
        Case("-0 integer", #"{"fInt32": -0, "fDouble": -0}"#),
        Case("-0.0 double", #"{"fDouble": -0.0, "fFloat": -0.0}"#),
        Case("NaN and infinities", #"{"fFloat": "NaN", "fDouble": "-Infinity", "packedDouble": ["Infinity", "NaN", 1]}"#),
        Case("float 1e300 out of range", #"{"fFloat": 1e300}"#),
        Case("float max as written", #"{"fFloat": 3.4028235e38, "packedDouble": [1.7976931348623157e308]}"#),
        Case("float just past max", #"{"fFloat": 3.4028236e38}"#),
        Case("double 1e300", #"{"fDouble": 1e300, "fFloat": 3.4e38}"#),
        Case("float as a string", #"{"fFloat": "2.5", "fDouble": "-1e-5"}"#),
        Case("float shortest text", #"{"fFloat": 0.1, "fDouble": 5e-324}"#),
        Case("empty bytes and string", #"{"fBytes": "", "fString": ""}"#),
        Case("bytes URL-safe without padding", #"{"fBytes": "-_8"}"#),
        Case("bytes standard without padding", #"{"fBytes": "AQID/w"}"#),
        Case("bytes not base64", #"{"fBytes": "!!!!"}"#),
        Case("string as a number", #"{"fString": 5}"#),
        Case("bool as a string", #"{"fBool": "true"}"#),
        Case("unicode escapes", #"{"fString": "\u00e9\ud83d\ude00\u0000"}"#),
        Case("lone surrogate escape", #"{"fString": "\ud800"}"#),
        Case("enum by number", #"{"fEnum": 2, "rEnum": [1, "GREEN"]}"#),
        Case("enum unknown number", #"{"fEnum": 7}"#),
        Case("enum unknown name", #"{"fEnum": "BLUE"}"#),
        Case("enum number as a string", #"{"fEnum": "1"}"#),
        Case("enum zero name", #"{"fEnum": "COLOR_UNSPECIFIED"}"#),
        Case("nested", #"{"fNested": {"a": 1, "child": {"b": "x", "list": [1, 2]}}}"#),
        Case("nested empty", #"{"fNested": {}}"#),
        Case("nested not an object", #"{"fNested": 5}"#),
        Case("proto3 optional at default", #"{"optInt32": 0, "optString": ""}"#),
        Case("repeated", #"{"packedInt32": [1, -2, 3], "unpackedInt32": [4, 5], "packedDouble": [1.5, 0], "rString": ["a", ""], "rNested": [{"a": 1}, {}], "rEnum": ["RED", 2, 9], "packedSint64": ["-1", 2], "rBytes": ["AQ==", ""], "packedFixed32": [0, 7], "unpackedBool": [true, false]}"#),
        Case("repeated empty", #"{"packedInt32": [], "rNested": []}"#),
        Case("repeated null element", #"{"packedInt32": [1, null]}"#),
        Case("repeated not an array", #"{"packedInt32": 5}"#),
        Case("maps", #"{"mStringInt32": {"a": 1, "": 0}, "mInt32String": {"-5": "x", "7": ""}, "mBoolNested": {"true": {"a": 1}, "false": {}}, "mInt64Enum": {"9223372036854775807": "RED", "-1": 0}, "mUint32Bytes": {"4294967295": "AAE="}, "mSint32Double": {"-2": 1.25}}"#),
        Case("map of Values", #"{"mStringValue": {"n": null, "s": "t", "o": {"x": [1, true]}}}"#),
        Case("map int key not a number", #"{"mInt32String": {"x": "y"}}"#),
        Case("map bool key not a boolean", #"{"mBoolNested": {"yes": {}}}"#),
        Case("map null value", #"{"mStringInt32": {"a": null}}"#),
        Case("map key out of range", #"{"mInt32String": {"3000000000": "y"}}"#),
        Case("oneof string at default", #"{"oString": ""}"#),
        Case("oneof message", #"{"oNested": {"a": 2}}"#),
        Case("oneof two members", #"{"oString": "a", "oInt32": 1}"#),
        Case("oneof one member and a null", #"{"oString": "a", "oInt32": null}"#),
        Case("oneof NullValue", #"{"oNull": null}"#),
        Case("NullValue field", #"{"fNull": null}"#),
        Case("null fields are absent", #"{"fInt32": null, "fNested": null, "packedInt32": null, "mStringInt32": null, "wInt32": null, "tTimestamp": null}"#),
        Case("timestamp", #"{"tTimestamp": "1972-01-01T10:00:20.021Z"}"#),
        Case("timestamp epoch", #"{"tTimestamp": "1970-01-01T00:00:00Z"}"#),
        Case("timestamp first", #"{"tTimestamp": "0001-01-01T00:00:00Z"}"#),
        Case("timestamp last", #"{"tTimestamp": "9999-12-31T23:59:59.999999999Z"}"#),
        Case("timestamp offset", #"{"tTimestamp": "1972-01-01T10:00:20.021+05:30"}"#),
        Case("timestamp negative offset", #"{"tTimestamp": "1969-12-31T23:00:00.5-01:00"}"#),
        Case("timestamp micros", #"{"tTimestamp": "2024-02-29T12:00:00.000001Z"}"#),
        Case("timestamp 29 February of a common year", #"{"tTimestamp": "2023-02-29T00:00:00Z"}"#),
        Case("timestamp with a space", #"{"tTimestamp": "1972-01-01 10:00:20Z"}"#),
        Case("timestamp year 10000", #"{"tTimestamp": "10000-01-01T00:00:00Z"}"#),
        Case("timestamp ten fraction digits", #"{"tTimestamp": "1972-01-01T10:00:20.0000000001Z"}"#),
        Case("timestamp without zone", #"{"tTimestamp": "1972-01-01T10:00:20"}"#),
        Case("timestamp not a string", #"{"tTimestamp": 5}"#),
        Case("duration", #"{"tDuration": "1.5s"}"#),
        Case("duration negative fraction", #"{"tDuration": "-0.5s"}"#),
        Case("duration zero", #"{"tDuration": "0s"}"#),
        Case("duration max", #"{"tDuration": "315576000000s"}"#),
        Case("duration min", #"{"tDuration": "-315576000000.999999999s"}"#),
        Case("duration nanos", #"{"tDuration": "1.000000001s"}"#),
        Case("duration millis", #"{"tDuration": "0.010s"}"#),
        Case("duration without s", #"{"tDuration": "1.5"}"#),
        Case("duration past max", #"{"tDuration": "315576000001s"}"#),
        Case("duration ten fraction digits", #"{"tDuration": "1.0000000001s"}"#),
        Case("any of a message", #"{"tAny": {"@type": "type.googleapis.com/conformance.Nested", "a": 1, "b": "x"}}"#),
        Case("any with @type last", #"{"tAny": {"b": "x", "@type": "type.googleapis.com/conformance.Nested"}}"#),
        Case("any of a timestamp", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.Timestamp", "value": "1972-01-01T10:00:20Z"}}"#),
        Case("any of a duration", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "2s"}}"#),
        Case("any of a struct", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.Struct", "value": {"a": 1}}}"#),
        Case("any of an any", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.Any", "value": {"@type": "type.googleapis.com/conformance.Nested", "a": 4}}}"#),
        Case("any of an empty", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.Empty"}}"#),
        Case("any of a wrapper", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.Int64Value", "value": "5"}}"#),
        Case("any of a field mask", #"{"tAny": {"@type": "type.googleapis.com/google.protobuf.FieldMask", "value": "a.bC"}}"#),
        Case("any empty", #"{"tAny": {}}"#),
        Case("any of an unknown type", #"{"tAny": {"@type": "type.googleapis.com/x.Unknown"}}"#),
        Case("any without @type", #"{"tAny": {"a": 1}}"#),
        Case("any with an unknown field", #"{"tAny": {"@type": "type.googleapis.com/conformance.Nested", "zz": 1}}"#),
        Case("struct", #"{"tStruct": {"a": 1, "b": [null, "x", {"c": false}], "d": {}}}"#),
        Case("struct not an object", #"{"tStruct": [1]}"#),
        Case("value number", #"{"tValue": 1.5}"#),
        Case("value null", #"{"tValue": null}"#),
        Case("value string", #"{"tValue": "s"}"#),
        Case("value list", #"{"tValue": [1, {"a": []}]}"#),
        Case("value object", #"{"tValue": {"k": "v"}}"#),
        Case("list value", #"{"tList": [1, "a", null, true]}"#),
        Case("empty", #"{"tEmpty": {}}"#),
        Case("empty with a field", #"{"tEmpty": {"a": 1}}"#),
        Case("field mask", #"{"tMask": "a.bC,dE"}"#),
        Case("field mask empty", #"{"tMask": ""}"#),
        Case("field mask with an underscore", #"{"tMask": "a_b"}"#),
        Case("wrappers", #"{"wDouble": 1.5, "wFloat": "NaN", "wInt64": "-5", "wUint64": "18446744073709551615", "wInt32": 0, "wUint32": 7, "wBool": false, "wString": "", "wBytes": "AQI="}"#),
        Case("wrapper of the wrong type", #"{"wBool": 1}"#),
        Case("repeated well-known types", #"{"rValue": [null, 1, "a"], "rAny": [{"@type": "type.googleapis.com/conformance.Nested", "a": 3}], "rTimestamp": ["1970-01-01T00:00:01Z"], "rWrapper": [0, 5]}"#),
        Case("unknown field", #"{"nope": 1}"#),
        Case("a field by both names", #"{"fInt32": 1, "f_int32": 2}"#),
        Case("top-level timestamp", #""1972-01-01T10:00:20Z""#, type: "google.protobuf.Timestamp"),
        Case("top-level duration", #""-1.25s""#, type: "google.protobuf.Duration"),
        Case("top-level struct", #"{"a": {"b": [1]}}"#, type: "google.protobuf.Struct"),
        Case("top-level value", #"[1, "x"]"#, type: "google.protobuf.Value"),
        Case("top-level wrapper", #""x""#, type: "google.protobuf.StringValue"),
        Case("top-level field mask", #""fooBar.baz""#, type: "google.protobuf.FieldMask"),
        Case("top-level any", #"{"@type": "type.googleapis.com/conformance.Nested", "list": [1]}"#, type: "google.protobuf.Any"),
        Case("depth 99", nested(99)),
        Case("depth 101", nested(101)),
        // proto2: groups, closed enums, explicit presence and packing.
        Case("proto2", #"{"name": "n", "count": 0, "level": "HIGH", "packed": [1, 2], "plain": [3], "data": {"x": 1, "y": "z"}, "item": [{"id": 1}, {}], "levels": ["LOW"]}"#, type: legacy),
        Case("proto2 closed enum unknown number", #"{"name": "n", "level": 5}"#, type: legacy),
        Case("proto2 closed enum zero", #"{"name": "n", "level": 0}"#, type: legacy),
        Case("proto2 group by its type's name", #"{"name": "n", "Data": {"x": 1}}"#, type: legacy),
        // Bytes read by both (hex).
        Case("bytes: a packed field sent unpacked", hex: "a00105a00106"),
        Case("bytes: an unpacked field sent packed", hex: "aa01020102"),
        Case("bytes: a singular field twice (last wins)", hex: "08010802"),
        Case("bytes: a message field twice (merged)", hex: "8a010208018a0103120178"),
        Case("bytes: an unknown field", hex: "b83e010805"),
        Case("bytes: a field with another wire type", hex: "0d010000000803"),
        Case("bytes: a oneof's last member", hex: "c20201617a00d00207"),
        Case("bytes: a map key twice", hex: "f201050a01611001f201050a01611002"),
        Case("bytes: a map entry without a value", hex: "f201030a0161"),
        Case("bytes: an implicit field at zero", hex: "08007200"),
        Case("bytes: an open enum's unknown number", hex: "800107"),
        Case("bytes: invalid UTF-8", hex: "7201ff"),
        Case("bytes: truncated", hex: "0a"),
        Case("bytes: a timestamp past 9999", hex: "920307088083d1ffaf07"),
        Case("bytes: a duration with mixed signs", hex: "9a030d080110ffffffffffffffffff01"),
        Case("bytes: a group", hex: "3338013412016e", type: legacy),
        Case("bytes: a closed enum's unknown number", hex: "180512016e", type: legacy),
        Case("bytes: a packed closed enum with an unknown number", hex: "5a030102071201" + "6e", type: legacy),
    ]

    /// Where MockServer and Python differ by design, by case name, and why. An entry whose case
    /// agrees fails the test, so that the list stays true.
    static let exceptions: [String: String] = [
        // The mapping's conformance suite (FieldNameDuplicateDifferentCasing) requires a parser to
        // refuse one field given by both its names; Python's json_format keeps the last.
        "a field by both names": "Python takes a field given by its JSON name and its proto name",
        // Python's base64 decoder drops characters outside the alphabet; the mapping allows either
        // alphabet, not any character.
        "bytes not base64": "Python drops the characters that are not base64",
        // The mapping: "fractional seconds ... up to 9 digits"; Python rounds a tenth digit away.
        "duration ten fraction digits": "Python reads a tenth fraction digit of a Duration",
        // Python refuses any double past float's largest, even 3.4028235e+38, which is how its own
        // MessageToJson writes that largest float: ours reads what rounds to a finite float.
        "float max as written": "Python refuses float's largest value as JSON writes it",
    ]

    /// `{"fNested": {"child": {"child": …}}}` with messages `depth` deep, counting AllTypes.
    static func nested(_ depth: Int) -> String {
        var text = "{\"a\": 1}"
        for _ in 0 ..< depth - 2 { text = "{\"child\": \(text)}" }
        return "{\"fNested\": \(text)}"
    }

    /// What MockServer made of a case.
    enum Outcome {
        case bytes([UInt8])
        case refused(String)
    }

    @Test("the table agrees with Python's json_format")
    func table() throws {
        let fixtures = Tools.repositoryRoot.appendingPathComponent("Tests/MockServerProtobufTests/Fixtures").path
        let script = Tools.repositoryRoot.appendingPathComponent("Tests/Python/protojson_conformance.py").path
        // The schema as `mockserver --proto` reads it; Python compiles the same files with protoc.
        let codec = ProtoJSONCodec(schema: try ProtoLoader(protoPaths: [fixtures]).load(["conformance.proto", "conformance2.proto"]))

        var ours: [Outcome] = []
        var requests: [JSONNode] = []
        for row in Self.cases {
            var request: [String: JSONNode] = ["type": .string(row.type)]
            if let hex = row.hex {
                let bytes = Self.bytes(hex: hex)
                ours.append(.bytes(bytes))
                request["binary"] = .string(Base64.encode(bytes))
            } else if let json = row.json {
                request["json"] = .string(json)
                do {
                    let node = try JSONReader.parse(Array(json.utf8), options: .strict)
                    let bytes = try codec.binary(fromJSON: node, type: row.type)
                    ours.append(.bytes(bytes))
                    request["ours"] = .string(Base64.encode(bytes))
                } catch {
                    ours.append(.refused("\(error)"))
                }
            }
            requests.append(.object(request))
        }
        let answer = try Tools.run("python3", [script, "cases", fixtures], input: JSONText.write(.array(requests), layout: .compact))
        try #require(answer.status == 0, "\(answer.stderr)")
        guard case .array(let results) = try JSONReader.parse(Array(answer.stdout.utf8), options: .strict).kind else {
            Issue.record("Python's answer is not an array")
            return
        }
        try #require(results.count == Self.cases.count)

        var disagreements: [String: String] = [:]
        var agreed = 0
        for (index, row) in Self.cases.enumerated() {
            let result = results[index].objectMembers ?? [:]
            let pythonOK: Bool = if case .bool(true)? = result["python_ok"]?.kind { true } else { false }
            let pythonError = result["python_error"]?.stringValue ?? ""
            var problems: [String] = []
            switch ours[index] {
            case .refused(let reason):
                if pythonOK { problems.append("ours refused (\(reason)), Python accepted") }
            case .bytes(let bytes):
                if row.hex != nil {
                    // Bytes: both read them, or both refuse them.
                    let mine = Result { try codec.json(fromBinary: bytes, type: row.type) }
                    switch (mine, pythonOK) {
                    case (.success(let json), true):
                        problems += Self.compare(json, result["python_json"], "JSON")
                        if let withDefaults = try? codec.json(fromBinary: bytes, type: row.type, emittingDefaults: true) {
                            problems += Self.compare(withDefaults, result["python_json_defaults"], "JSON with defaults")
                        }
                    case (.failure(let error), true): problems.append("ours refused the bytes (\(error)), Python read them")
                    case (.success(let json), false): problems.append("ours read the bytes as \(JSONText.write(json, layout: .compact)), Python refused them (\(pythonError))")
                    case (.failure, false): break
                    }
                } else if !pythonOK {
                    problems.append("ours accepted, Python refused (\(pythonError))")
                } else {
                    if case .bool(true)? = result["same_message"]?.kind {} else { problems.append("our bytes are not Python's message (\(pythonError))") }
                    let pythonBytes = Base64.decode(result["python_binary"]?.stringValue ?? "") ?? []
                    do {
                        problems += Self.compare(try codec.json(fromBinary: pythonBytes, type: row.type), result["python_json"], "JSON of Python's bytes")
                        problems += Self.compare(try codec.json(fromBinary: pythonBytes, type: row.type, emittingDefaults: true),
                                                 result["python_json_defaults"], "JSON with defaults of Python's bytes")
                        problems += Self.compare(try codec.json(fromBinary: bytes, type: row.type), result["python_json"], "JSON of our bytes")
                    } catch {
                        problems.append("ours cannot read bytes: \(error)")
                    }
                }
            }
            if problems.isEmpty { agreed += 1 } else { disagreements[row.name] = problems.joined(separator: "; ") }
        }
        for (name, problem) in disagreements.sorted(by: { $0.key < $1.key }) where Self.exceptions[name] == nil {
            Issue.record("\(name): \(problem)")
        }
        for name in Self.exceptions.keys.sorted() where disagreements[name] == nil {
            Issue.record("\(name) is listed as an exception but agrees with Python")
        }
        print("ProtoJSON conformance: \(agreed) of \(Self.cases.count) cases agree with Python's protobuf; \(disagreements.count) differ by design")
    }

    /// The differences between our JSON and Python's, compared as JSON values.
    static func compare(_ ours: JSONNode, _ python: JSONNode?, _ what: String) -> [String] {
        let mine = JSONText.write(ours, layout: .canonical)
        let theirs = python.map { JSONText.write($0, layout: .canonical) } ?? "nothing"
        return mine == theirs ? [] : ["\(what): ours \(mine), Python's \(theirs)"]
    }

    /// The bytes that `hex` spells.
    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var characters = hex.makeIterator()
        while let high = characters.next(), let low = characters.next() {
            bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        return bytes
    }
}
