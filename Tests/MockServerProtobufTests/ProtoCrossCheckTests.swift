import Foundation
import MockServerProtobuf
import Testing
import TestSupport

/// The fixtures (Fixtures/protos: a route guide, a proto2 file with groups, defaults, extensions and
/// packed fields, nested scopes with maps, oneofs, `optional` and the well-known types) read by our
/// loader and written as descriptors, against `protoc`'s descriptor set of the same files
/// (grpcio-tools' `protoc`, `--include_imports`; and corners: scoping through packages, groups in a
/// oneof and in an `extend`, keywords as field names, extreme defaults, JSON names of odd field names), compared field by field by Python's `protobuf`
/// (Tests/Python/proto_descriptors.py says what the comparison leaves out, and why); then protoc's
/// set read by our descriptor reader gives the files our parser gave.
@Suite("Schemas against protoc", .offPool)
struct ProtoCrossCheckTests {
    static let protos = Tools.repositoryRoot.appendingPathComponent("Tests/MockServerProtobufTests/Fixtures/protos")
    static let script = Tools.repositoryRoot.appendingPathComponent("Tests/Python/proto_descriptors.py")
    static let files = ["routeguide/route_guide.proto", "legacy/legacy.proto", "shapes/shapes.proto", "edge/edge.proto"]

    /// `files` as the model compares them: a descriptor carries every field's JSON name, so whether
    /// one was written in the file is not compared.
    static func comparable(_ files: [ProtoFile]) -> [ProtoFile] {
        func clean(_ message: ProtoMessage) -> ProtoMessage {
            var message = message
            for index in message.fields.indices {
                message.fields[index].hasExplicitJSONName = message.fields[index].jsonName != ProtoField.lowerCamelCase(message.fields[index].name)
            }
            message.nestedMessages = message.nestedMessages.map(clean)
            return message
        }
        return files.map { file in
            var file = file
            file.messages = file.messages.map(clean)
            return file
        }
    }

    @Test("our descriptors equal protoc's field by field, and protoc's read back equal our parse",
          .enabled(if: Tools.hasPythonModule("grpc_tools")))
    func agreesWithProtoc() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proto-crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let protocSet = directory.appendingPathComponent("protoc.pb")
        let oursSet = directory.appendingPathComponent("ours.pb")
        let protoc = try Tools.run("python3", ["-m", "grpc_tools.protoc", "-I", Self.protos.path, "--include_imports",
                                               "--descriptor_set_out=\(protocSet.path)"] + Self.files.map { Self.protos.appendingPathComponent($0).path })
        try #require(protoc.status == 0, "protoc failed: \(protoc.stderr)")

        let schema = try ProtoLoader(protoPaths: [Self.protos.path]).load(Self.files.map { Self.protos.appendingPathComponent($0).path })
        #expect(schema.files.map(\.name) == ["routeguide/route_guide.proto", "google/protobuf/descriptor.proto", "legacy/legacy.proto",
                                             "shapes/common.proto", "google/protobuf/timestamp.proto", "google/protobuf/any.proto",
                                             "google/protobuf/struct.proto", "google/protobuf/wrappers.proto", "google/protobuf/duration.proto",
                                             "google/protobuf/empty.proto", "google/protobuf/field_mask.proto", "shapes/shapes.proto",
                                             "edge/base.proto", "edge/edge.proto"])
        try Data(ProtoDescriptorWriter.fileDescriptorSet(schema.files)).write(to: oursSet)
        // descriptor.proto is not compared: the built-in one is written from Python's protobuf package
        // (7.36 here), newer than the copy grpcio-tools' protoc bundles (FeatureSet has a field more).
        let compared = try Tools.run("python3", [Self.script.path, oursSet.path, protocSet.path, "google/protobuf/descriptor.proto"])
        try #require(compared.status == 0, "proto_descriptors.py failed: \(compared.stderr)")
        #expect(compared.stdout.isEmpty, "\(compared.stdout)")

        let theirs = try ProtoLoader().loadDescriptorSet(protocSet.path).files
        let ours = Self.comparable(schema.files)
        let read = Self.comparable(theirs)
        for file in ours {
            guard let other = read.first(where: { $0.name == file.name }) else {
                Issue.record("\(file.name): not in protoc's set")
                continue
            }
            if file.name == "google/protobuf/descriptor.proto" { continue }
            #expect(file == other, "\(file.name) differs when read from protoc's set")
        }
    }

    @Test("the built-in files parse to the descriptors their Python packages carry", .enabled(if: Tools.hasPythonModule("grpc_reflection")))
    func builtInsAgreeWithPython() throws {
        let names = ProtoBuiltIns.files.keys.sorted()
        let schema = try ProtoLoader(protoPaths: ["/nonexistent-proto-path"], readFile: { _ in nil }).load(names)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proto-builtins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let oursSet = directory.appendingPathComponent("ours.pb")
        let pythonSet = directory.appendingPathComponent("python.pb")
        try Data(ProtoDescriptorWriter.fileDescriptorSet(schema.files)).write(to: oursSet)
        let dump = try Tools.run("python3", [Tools.repositoryRoot.appendingPathComponent("Tests/Python/proto_builtins.py").path, pythonSet.path])
        try #require(dump.status == 0, "proto_builtins.py failed: \(dump.stderr)")
        let compared = try Tools.run("python3", [Self.script.path, oursSet.path, pythonSet.path])
        try #require(compared.status == 0, "proto_descriptors.py failed: \(compared.stderr)")
        #expect(compared.stdout.isEmpty, "\(compared.stdout)")
    }
}
