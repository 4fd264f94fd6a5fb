// libFuzzer target: a peer's protobuf messages, decoded by a fixed schema into the proto3 JSON mapping.
//
// The first byte picks whether defaults are emitted (bit 0); the rest is a message of `fuzz.All`, a
// type with every scalar, repeated fields packed and not, maps, a oneof, a recursive message, a
// proto2 group and closed enum, and the well-known types (Timestamp, Duration, Any, Struct, Value,
// FieldMask, a wrapper). Properties checked:
// - no crash, whatever the bytes (a refusal is a ProtoWireError);
// - decode -> encode -> decode is stable: the JSON of bytes that decode encodes again, and those
//   bytes decode to the same JSON;
// - a message matches the pattern of its own JSON (defaults emitted), and every top-level field's
//   template value can be looked up.
import MockServerCore
import MockServerProtobuf
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The fixed schema: `fuzz.All` and what it uses.
let schema: ProtoSchema = {
    func field(_ name: String, _ number: Int32, _ type: ProtoFieldType, _ label: ProtoField.Label = .implicit,
               oneof: Int? = nil, packed: Bool = false) -> ProtoField {
        ProtoField(name: name, number: number, label: label, type: type, oneofIndex: oneof, isPacked: packed)
    }
    let scalars: [ProtoFieldType] = [.double, .float, .int64, .uint64, .int32, .fixed64, .fixed32, .bool, .string, .bytes,
                                     .uint32, .sfixed32, .sfixed64, .sint32, .sint64]
    var fields: [ProtoField] = []
    for (offset, type) in scalars.enumerated() {
        fields.append(field("s_\(type.name)", Int32(offset + 1), type))
        fields.append(field("r_\(type.name)", Int32(offset + 21), type, .repeated, packed: type.isPackable && offset % 2 == 0))
    }
    fields += [
        field("color", 40, .enum(".fuzz.Color")),
        field("colors", 41, .enum(".fuzz.Color"), .repeated, packed: true),
        field("level", 42, .enum(".fuzz.Level"), .optional),
        field("child", 43, .message(".fuzz.All")),
        field("children", 44, .message(".fuzz.All"), .repeated),
        field("by_name", 45, .message(".fuzz.All.ByNameEntry"), .repeated),
        field("by_number", 46, .message(".fuzz.All.ByNumberEntry"), .repeated),
        field("by_flag", 47, .message(".fuzz.All.ByFlagEntry"), .repeated),
        field("o_text", 48, .string, oneof: 0),
        field("o_child", 49, .message(".fuzz.All"), oneof: 0),
        field("o_null", 50, .enum(".google.protobuf.NullValue"), oneof: 0),
        field("maybe", 51, .int32, .optional, oneof: 1),
        field("data", 52, .group(".fuzz.All.Data"), .optional),
        field("at", 60, .message(".google.protobuf.Timestamp")),
        field("took", 61, .message(".google.protobuf.Duration")),
        field("any", 62, .message(".google.protobuf.Any")),
        field("extra", 63, .message(".google.protobuf.Struct")),
        field("value", 64, .message(".google.protobuf.Value")),
        field("mask", 65, .message(".google.protobuf.FieldMask")),
        field("wrapped", 66, .message(".google.protobuf.Int64Value")),
        field("values", 67, .message(".google.protobuf.Value"), .repeated),
        field("nothing", 68, .message(".google.protobuf.Empty")),
    ]
    let entry = { (name: String, key: ProtoFieldType, value: ProtoFieldType) in
        ProtoMessage(name: name, fullName: "fuzz.All." + name, fields: [field("key", 1, key), field("value", 2, value)], isMapEntry: true)
    }
    var maybe = fields.first { $0.name == "maybe" }!
    maybe.isProto3Optional = true
    fields = fields.map { $0.name == "maybe" ? maybe : $0 }
    let all = ProtoMessage(name: "All", fullName: "fuzz.All", fields: fields, oneofs: ["choice", "_maybe"], nestedMessages: [
        entry("ByNameEntry", .string, .message(".fuzz.All")),
        entry("ByNumberEntry", .sint64, .enum(".fuzz.Color")),
        entry("ByFlagEntry", .bool, .bytes),
        ProtoMessage(name: "Data", fullName: "fuzz.All.Data", fields: [field("x", 53, .int32, .optional), field("inner", 54, .message(".fuzz.All"), .optional)]),
    ])
    return ProtoSchema(files: [ProtoFile(name: "fuzz.proto", package: "fuzz", messages: [all], enums: [
        ProtoEnum(name: "Color", fullName: "fuzz.Color", values: [.init(name: "NONE", number: 0), .init(name: "RED", number: 1), .init(name: "GREEN", number: -2)]),
        ProtoEnum(name: "Level", fullName: "fuzz.Level", values: [.init(name: "LOW", number: 1), .init(name: "HIGH", number: 2)], isClosed: true),
    ])])
}()

let codec = ProtoJSONCodec(schema: schema)

func fuzzProtoWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let emit = input[0] & 1 == 1
    let bytes = Array(input[1...])
    let json: JSONNode
    do {
        json = try codec.json(fromBinary: bytes, type: "fuzz.All", emittingDefaults: emit)
    } catch {
        return 0
    }
    let text = JSONText.write(json, layout: .compact)
    let again: [UInt8]
    do {
        again = try codec.binary(fromJSON: json, type: "fuzz.All")
    } catch {
        preconditionFailure("the JSON of bytes that decode does not encode: \(text): \(error)")
    }
    do {
        let second = try codec.json(fromBinary: again, type: "fuzz.All", emittingDefaults: emit)
        let secondText = JSONText.write(second, layout: .compact)
        precondition(secondText == text, "decode -> encode -> decode is not stable: \(text) then \(secondText)")
        let withDefaults = try codec.json(fromBinary: bytes, type: "fuzz.All", emittingDefaults: true)
        let pattern = try codec.pattern(withDefaults, type: "fuzz.All")
        if let mismatch = pattern.mismatch(in: withDefaults) { preconditionFailure("a message does not match its own JSON: \(mismatch)") }
        if let mismatch = try codec.mismatch(of: pattern, inBinary: again) { preconditionFailure("a message's bytes encoded again do not match its JSON: \(mismatch)") }
        if case .object(let members) = withDefaults.kind {
            for member in members { _ = codec.templateValue(at: member.key + ".0", in: withDefaults, type: "fuzz.All") }
        }
    } catch {
        preconditionFailure("bytes encoded from JSON do not decode, or the JSON is not a pattern: \(text): \(error)")
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzProtoWire))
