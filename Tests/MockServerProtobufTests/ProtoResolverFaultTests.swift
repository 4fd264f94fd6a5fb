import MockServerProtobuf
import Testing

/// Faults the resolver finds while it changes a message's field (inside its update of the file):
/// each is refused with its place, not a crash (an overlapping access to the file was fatal).
@Suite struct ProtoResolverFaultTests {
    func load(_ text: String) throws(ProtoError) -> ProtoSchema {
        try ProtoLoader(protoPaths: ["/p"], workingDirectory: "/p", readFile: { path in path == "/p/a.proto" ? Array(text.utf8) : nil }).load(["a.proto"])
    }

    @Test func aMessageFieldWithADefaultIsRefused() {
        let error = #expect(throws: ProtoError.self) {
            try load("syntax = \"proto2\";\nmessage M { optional M child = 1 [default = x]; }\n")
        }
        #expect(error?.file == "a.proto")
        #expect(error?.reason == "message fields cannot have a default")
    }

    @Test func aProto3FieldOfAClosedEnumIsRefused() throws {
        let files: [String: String] = [
            "/p/a.proto": "syntax = \"proto3\";\nimport \"b.proto\";\nmessage M { E e = 1; }\n",
            "/p/b.proto": "syntax = \"proto2\";\nenum E { ONE = 1; }\n",
        ]
        let error = #expect(throws: ProtoError.self) {
            try ProtoLoader(protoPaths: ["/p"], workingDirectory: "/p", readFile: { files[$0].map { Array($0.utf8) } }).load(["a.proto"])
        }
        #expect(error?.file == "a.proto")
        #expect(error?.line == 3)
    }
}
