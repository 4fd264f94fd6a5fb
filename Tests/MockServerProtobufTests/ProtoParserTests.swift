import MockServerProtobuf
import Testing

/// The `.proto` reader alone: files given in memory to ``ProtoLoader``.
@Suite struct ProtoParserTests {
    /// The schema of `files` (name → text), the first given, the rest found as imports.
    static func load(_ files: [String: String], given: [String]? = nil) throws(ProtoError) -> ProtoSchema {
        let loader = ProtoLoader(protoPaths: ["/p"], workingDirectory: "/") { path in
            guard path.hasPrefix("/p/") else { return nil }
            return files[String(path.dropFirst(3))].map { Array($0.utf8) }
        }
        return try loader.load((given ?? [files.keys.sorted().first!]).map { "/p/" + $0 })
    }

    /// The error loading `text` as `a.proto` gives, as `file:line:column: reason`.
    static func failure(_ text: String, _ others: [String: String] = [:]) -> String {
        do {
            _ = try load(others.merging(["a.proto": text]) { $1 }, given: ["a.proto"])
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func resolvesNestedScopesPackagesAndImports() throws {
        let schema = try Self.load([
            "a.proto": """
            syntax = "proto3";
            package x.y;
            import "b.proto";
            message Outer {
              message Inner { Kind kind = 1; }
              enum Kind { K0 = 0; }
              Inner inner = 1;
              y.Outer.Inner again = 2;
              .x.y.Outer self = 3;
              z.Far far = 4;
            }
            """,
            "b.proto": "syntax = \"proto3\"; package x.z; message Far {} message Near {}\n",
        ], given: ["a.proto"])
        let outer = try #require(schema.message("x.y.Outer"))
        #expect(outer.fields[0].type == .message(".x.y.Outer.Inner"))
        #expect(outer.fields[1].type == .message(".x.y.Outer.Inner"))
        #expect(outer.fields[2].type == .message(".x.y.Outer"))
        #expect(outer.fields[3].type == .message(".x.z.Far"))
        #expect(schema.message("x.y.Outer.Inner")?.fields.first?.type == .enum(".x.y.Outer.Kind"))
        #expect(schema.files.map(\.name) == ["b.proto", "a.proto"])
        #expect(Self.failure("syntax = \"proto3\";\npackage x.y;\nimport \"b.proto\";\nmessage M { Near n = 1; }",
                             ["b.proto": "syntax = \"proto3\"; package x.z; message Near {}\n"]) == "a.proto:4:13: unknown type \"Near\"")
    }

    @Test func mapsOneofsOptionalAndGroupsAreShapedAsProtocShapesThem() throws {
        let schema = try Self.load(["a.proto": """
            syntax = "proto3";
            message M {
              oneof choice { string a = 1; int32 b = 2; }
              optional int32 c = 3;
              map<string, M> by_name = 4;
              repeated int32 packed = 5;
              repeated int32 loose = 6 [packed = false];
            }
            """])
        let message = try #require(schema.message("M"))
        #expect(message.oneofs == ["choice", "_c"])
        #expect(message.fields.map(\.oneofIndex) == [0, 0, 1, nil, nil, nil])
        #expect(message.fields[2].isProto3Optional && message.fields[2].label == .optional)
        #expect(message.fields[0].label == .implicit)
        let entry = try #require(message.nestedMessages.first)
        #expect(entry.name == "ByNameEntry" && entry.isMapEntry)
        #expect(entry.fields.map(\.name) == ["key", "value"] && entry.fields[1].type == .message(".M"))
        #expect(message.fields[3].label == .repeated && message.fields[3].type == .message(".M.ByNameEntry"))
        #expect(message.fields[4].isPacked && !message.fields[5].isPacked)

        let legacy = try Self.load(["a.proto": """
            syntax = "proto2";
            message L {
              optional group Result = 1 { optional int32 n = 1; }
              repeated int32 loose = 2;
              repeated int32 tight = 3 [packed = true];
              enum E { A = 1; }
              optional E e = 4 [default = A];
            }
            """])
        let l = try #require(legacy.message("L"))
        #expect(l.fields[0].name == "result" && l.fields[0].type == .group(".L.Result"))
        #expect(l.nestedMessages.map(\.name) == ["Result"])
        #expect(!l.fields[1].isPacked && l.fields[2].isPacked)
        #expect(l.fields[3].defaultValue == "A" && legacy.enumType("L.E")?.isClosed == true)
    }

    @Test(arguments: [
        ("syntax = \"proto3\";\nmessage M { Missing m = 1; }", "a.proto:2:13: unknown type \"Missing\""),
        ("syntax = \"proto3\";\nmessage M {}\nmessage M {}", "a.proto:3:9: \"M\" is already defined in this file"),
        ("syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n  int32 b = 1;\n}", "a.proto:4:13: field number 1 is already used by \"a\" in M"),
        ("syntax = \"proto3\";\nmessage M { int32 a = 0; }", "a.proto:2:23: field numbers must be 1 to 536870911"),
        ("syntax = \"proto3\";\nmessage M { int32 a = 536870912; }", "a.proto:2:23: field numbers must be 1 to 536870911"),
        ("syntax = \"proto3\";\nmessage M { int32 a = 19500; }", "a.proto:2:23: field numbers 19000 to 19999 are reserved for protobuf"),
        ("syntax = \"proto3\";\nmessage M { required int32 a = 1; }", "a.proto:2:13: required fields are not allowed in proto3"),
        ("syntax = \"proto3\";\nmessage M { int32 a = 1 [default = 2]; }", "a.proto:2:36: default values are not allowed in proto3"),
        ("syntax = \"proto3\";\nenum E { A = 1; }", "a.proto:2:14: the first value of a proto3 enum must be 0"),
        ("syntax = \"proto3\";\nmessage M { map<float, int32> m = 1; }", "a.proto:2:17: a map's key cannot be float, double or bytes"),
        ("syntax = \"proto3\";\nmessage M { map<bytes, int32> m = 1; }", "a.proto:2:17: a map's key cannot be float, double or bytes"),
        ("syntax = \"proto3\";\nmessage M { map<M, int32> m = 1; }", "a.proto:2:17: a map's key must be an integer, bool or string type, not M"),
        ("syntax = \"proto3\";\nimport \"nope.proto\";", "a.proto:2:8: import \"nope.proto\" was not found in the proto paths (/p) nor among the built-in files"),
        ("edition = \"2023\";", "a.proto:1:1: editions are not supported: write \"syntax = \\\"proto3\\\";\" or \"proto2\""),
        ("syntax = \"proto3\";\nmessage M { string s = 1 [json_name = \"\\xff\"]; }", "a.proto:2:39: json_name takes a UTF-8 string"),
        ("syntax = \"proto3\";\n/* never closed", "a.proto:2:1: a comment that is never closed (*/)"),
        ("syntax = \"proto3\";\nmessage M { string s = 1 [json_name = \"ab\n\"]; }", "a.proto:2:39: a string that is not closed on its line"),
        ("syntax = \"proto2\";\nmessage M { int32 a = 1; }", "a.proto:2:13: expected \"required\", \"optional\" or \"repeated\", found \"int32\""),
        ("syntax = \"proto2\";\nmessage M { optional E e = 1 [default = C]; enum E { A = 1; } }", "a.proto:2:41: C is not a value of enum M.E"),
        ("syntax = \"proto3\";\nmessage M { reserved 2; int32 a = 2; }", "a.proto:2:35: field \"a\" uses reserved number 2"),
        ("syntax = \"proto3\";\nenum E { A = 0; B = 0; }", "a.proto:2:21: B uses number 0 like A: set option allow_alias = true to allow it"),
        ("syntax = \"proto3\";\nenum E { A = 0; }\nenum F { A = 0; }", "a.proto:3:10: \"A\" is already defined in this file (enum values are siblings of their enum, as in C++, so they must be unique in its scope)"),
        ("syntax = \"proto3\";\nmessage M { int32 a = 1 }", "a.proto:2:25: expected ';' after field a, found '}'"),
        ("syntax = \"proto3\";\nimport \"b.proto\";", "b.proto:2:8: import cycle: a.proto -> b.proto -> a.proto"),
        ("syntax = \"proto3\";\nimport \"b.proto\";\nmessage M { C c = 1; }", "a.proto:3:13: \"C\" is defined in c.proto, which a.proto does not import"),
        ("syntax = \"proto3\";\npackage a.b.c;\nmessage M { b.N n = 1; }\nmessage N {}", "a.proto:3:13: unknown type \"b.N\""),
        ("syntax = \"proto2\";\nmessage M { map<string, E> m = 1; }\nenum E { ONE = 1; }", "a.proto:2:25: enum E is a map's value type, so its first value must be 0"),
        ("syntax = \"proto3\";\nmessage M { int32 foo_bar = 1; int32 fooBar = 2; }", "a.proto:2:38: the JSON name of \"fooBar\" (fooBar) is also that of \"foo_bar\""),
        ("syntax = \"proto3\";\nmessage M { int32 a = 1; int32 b = 2 [json_name = \"a\"]; }", "a.proto:2:32: the JSON name of \"b\" (a) is also that of \"a\""),
        ("\u{FEFF}syntax = \"proto3\";\nmessage M { Point p = 1; }\nmessage Point {}", "no error"),
        ("syntax = \"proto3\";\nmessage M { Point p = 1; }\nmessage Point {\n  int32 x = 1;\n  int32 y = 2 [deprecated = true, (my.opt) = { a: 1 b { c: \"d\" } }];\n}", "no error"),
    ])
    func errorsNameFileLineAndColumn(text: String, expected: String) {
        let others = text.contains("b.proto") && text.contains("C c") ?
            ["b.proto": "syntax = \"proto3\";\nimport \"c.proto\";\n", "c.proto": "syntax = \"proto3\";\nmessage C {}\n"] :
            ["b.proto": "syntax = \"proto3\";\nimport \"a.proto\";\n"]
        #expect(Self.failure(text, others) == expected)
    }

    @Test func commentsEverywhereCRLFAndEscapedStringsAreRead() throws {
        let text = "// head\r\nsyntax /* a */ = \"pro\" 'to3'; // joined\r\npackage /*x*/ p;\r\noption go_package = \"a\\x41\\101\\u00e9\\\"\";\r\nmessage /* c */ M { // d\r\n  int32 /* e */ a = 0x1 /* f */; }\r\n"
        let schema = try Self.load(["a.proto": text])
        #expect(schema.file("a.proto")?.syntax == .proto3)
        #expect(schema.file("a.proto")?.options["go_package"] == "aAAé\"")
        #expect(schema.message("p.M")?.fields.first?.number == 1)
        #expect(Self.failure("syntax = \"proto3\";\r\nmessage M { int32 a = 1; }\r\nmessage M {}\r\n") == "a.proto:3:9: \"M\" is already defined in this file")
    }

    @Test func nestingIsBoundedAndBadBytesAreRefusedWithTheirPlace() {
        let deep = "syntax = \"proto3\";\n" + String(repeating: "message M {", count: 100) + String(repeating: "}", count: 100)
        #expect(Self.failure(deep).hasSuffix("declarations nested more than 64 deep"))
        let aggregate = "syntax = \"proto3\";\noption (x) = " + String(repeating: "{a ", count: 100) + String(repeating: "}", count: 100) + ";"
        #expect(Self.failure(aggregate).hasSuffix("declarations nested more than 64 deep"))
        var bytes = Array("syntax = \"proto3\";\nmessage M { string s = 1; }\n".utf8)
        bytes.insert(0xFF, at: 20)
        let file = bytes
        let loader = ProtoLoader(protoPaths: ["/p"], workingDirectory: "/") { $0 == "/p/a.proto" ? file : nil }
        #expect(throws: ProtoError(file: "a.proto", line: 2, column: 2, reason: "unexpected non-ASCII character outside a string or comment")) {
            try loader.load(["/p/a.proto"])
        }
    }

    @Test func filesAreNamedByTheProtoPathThatHoldsThemAndLoadOnce() throws {
        let files = ["/w/protos/a/b.proto": "syntax = \"proto3\";\nimport \"a/c.proto\";\n", "/w/protos/a/c.proto": "syntax = \"proto3\";\n"]
        let loader = ProtoLoader(protoPaths: ["protos"], workingDirectory: "/w") { files[$0].map { Array($0.utf8) } }
        let schema = try loader.load(["protos/a/b.proto", "./protos/a/../a/c.proto", "a/c.proto"])
        #expect(schema.files.map(\.name) == ["a/c.proto", "a/b.proto"])
        #expect(throws: ProtoError.self) { try loader.load(["/elsewhere/x.proto"]) }
        let implicit = ProtoLoader(workingDirectory: "/w") { files[$0].map { Array($0.utf8) } }
        #expect(try implicit.load(["protos/a/c.proto"]).files.map(\.name) == ["protos/a/c.proto"])
        let besides = ["/x/b.proto": "syntax = \"proto3\";\nimport \"c.proto\";\n", "/x/c.proto": "syntax = \"proto3\";\n"]
        let outside = ProtoLoader(workingDirectory: "/w") { besides[$0].map { Array($0.utf8) } }
        #expect(try outside.load(["/x/b.proto"]).files.map(\.name) == ["c.proto", "b.proto"])
    }

    @Test func aProtoPathFileOverridesABuiltInOne() throws {
        let own = "syntax = \"proto3\";\npackage google.protobuf;\nmessage Empty { int32 mine = 1; }\n"
        let schema = try Self.load(["a.proto": "syntax = \"proto3\";\nimport \"google/protobuf/empty.proto\";\n", "google/protobuf/empty.proto": own], given: ["a.proto"])
        #expect(schema.message("google.protobuf.Empty")?.fields.first?.name == "mine")
        let builtIn = try Self.load(["a.proto": "syntax = \"proto3\";\nimport \"google/rpc/status.proto\";\n"], given: ["a.proto"])
        #expect(builtIn.message("google.rpc.Status")?.fields.map(\.name) == ["code", "message", "details"])
    }

    @Test func descriptorsRoundTripThroughTheReader() throws {
        let schema = try Self.load(["a.proto": """
            syntax = "proto3";
            package p;
            import "google/protobuf/timestamp.proto";
            option go_package = "example.com/p";
            message M {
              oneof o { string a = 1; }
              optional int32 b = 2;
              map<int64, string> m = 3;
              repeated double d = 4 [packed = false];
              google.protobuf.Timestamp t = 5;
              int32 renamed = 6 [json_name = "other"];
            }
            service S { rpc Call(stream M) returns (stream M); }
            """])
        let bytes = ProtoDescriptorWriter.fileDescriptorSet(schema.files)
        let read = try ProtoDescriptorReader.files(of: bytes, name: "set.pb")
        #expect(read.map(\.name) == schema.files.map(\.name))
        #expect(read.last == schema.files.last)
        #expect(throws: ProtoError(file: "bad.pb", line: 0, column: 0, reason: "is not a FileDescriptorSet: the message ends inside a value (byte 1)")) {
            try ProtoDescriptorReader.files(of: [0x0A, 0x05, 0x01], name: "bad.pb")
        }
        var editions = ProtoWireWriter()
        editions.tag(1, .lengthDelimited)
        editions.lengthDelimited([0x0A, 0x03] + Array("e.p".utf8) + [0x62, 0x08] + Array("editions".utf8))
        #expect(throws: ProtoError(file: "set.pb", line: 0, column: 0, reason: "e.p: syntax \"editions\" is not supported (editions are not)")) {
            try ProtoDescriptorReader.files(of: editions.bytes, name: "set.pb")
        }
        let builtIn = try ProtoLoader(workingDirectory: "/w") { _ in nil }.load(["google/rpc/status.proto"])
        #expect(builtIn.files.map(\.name) == ["google/protobuf/any.proto", "google/rpc/status.proto"])
    }
}
