import Foundation
import Testing
import MockServerCore

/// The one JSON writer, in both layouts, and the bridge to the objects Swift code and
/// JSONSerialization use.
@Suite("JSON writer and the Foundation bridge")
struct JSONTextTests {
    private func value(_ text: String) throws -> JSONNode {
        try JSONReader.parse(Array(text.utf8), options: .strict)
    }

    @Test("spaced keeps order and numbers as written; canonical sorts keys, drops spaces and writes numbers by value")
    func layouts() throws {
        let parsed = try value(#"{"b": [1, 2.50, 3.0], "a": {"y": null, "x": true}, "c": "s/\"q\"", "e": {}}"#)
        #expect(JSONText.write(parsed) == #"{ "b": [1, 2.50, 3.0], "a": { "y": null, "x": true }, "c": "s/\"q\"", "e": {} }"#)
        #expect(JSONText.write(parsed, layout: .canonical) == #"{"a":{"x":true,"y":null},"b":[1,2.5,3],"c":"s/\"q\"","e":{}}"#)
        // Two texts of the same JSON have one canonical form.
        let other = try value(#"{"e":{},"c":"s/\"q\"","a":{"x":true,"y":null},"b":[1e0,25e-1,3]}"#)
        #expect(JSONText.write(other, layout: .canonical) == JSONText.write(parsed, layout: .canonical))
    }

    @Test("Swift values, optionals and NSNull become JSON; what JSON cannot hold is refused")
    func fromFoundation() throws {
        let object: [String: Any] = ["int": 3, "double": 1.5, "flag": false, "text": "é", "none": NSNull(),
                                     "optional": Optional<Int>.none as Any, "list": [1, "two", [true]] as [Any], "big": UInt64.max]
        let json = try #require(JSONNode(foundationObject: object))
        #expect(JSONText.write(json, layout: .canonical)
                == #"{"big":1.8446744073709552e+19,"double":1.5,"flag":false,"int":3,"list":[1,"two",[true]],"none":null,"optional":null,"text":"é"}"#)
        #expect(JSONNode(foundationObject: ["date": Date()]) == nil)
        #expect(JSONNode(foundationObject: Double.nan) == nil)
        #expect(JSONNode(foundationObject: NSNumber(value: 7)).map { JSONText.write($0) } == "7")
    }

    @Test("parsed JSON as JSONSerialization gives it: numbers as NSNumber, exact integers, NSNull")
    func toFoundation() throws {
        let object = try #require(try value(#"{"n": 12345678901, "d": 0.25, "b": true, "z": null, "l": ["x"]}"#).foundationObject as? [String: Any])
        #expect((object["n"] as? NSNumber)?.int64Value == 12_345_678_901)
        #expect((object["d"] as? NSNumber)?.doubleValue == 0.25)
        #expect(object["b"] as? Bool == true)
        #expect(object["z"] is NSNull)
        #expect(object["l"] as? [String] == ["x"])
    }
}
