/// Writes files as `google.protobuf.FileDescriptorProto` bytes, as reflection answers with them and
/// as protoc writes them: public and weak dependencies; every field's `json_name`; `label`, `type`
/// and a fully qualified `type_name`; `oneof_index` and `proto3_optional`; `default_value`;
/// `options.packed` where it differs from the syntax's default; `options.map_entry`;
/// `options.allow_alias` where values share a number; the file options kept; `syntax` for proto3
/// (protoc leaves it out for proto2). Pure code.
package enum ProtoDescriptorWriter {
    /// `file` as a `FileDescriptorProto`.
    package static func fileDescriptorProto(_ file: ProtoFile) -> [UInt8] {
        var writer = ProtoWireWriter(capacity: 256)
        writer.string(1, file.name)
        if !file.package.isEmpty { writer.string(2, file.package) }
        for dependency in file.dependencies { writer.string(3, dependency) }
        for message in file.messages { writer.message(4, descriptorProto(message, syntax: file.syntax)) }
        for value in file.enums { writer.message(5, enumDescriptorProto(value)) }
        for service in file.services { writer.message(6, serviceDescriptorProto(service)) }
        if !file.options.isEmpty { writer.message(8, fileOptions(file.options)) }
        for index in file.publicDependencies { writer.varintField(10, UInt64(bitPattern: Int64(index))) }
        for index in file.weakDependencies { writer.varintField(11, UInt64(bitPattern: Int64(index))) }
        if file.syntax == .proto3 { writer.string(12, "proto3") }
        return writer.bytes
    }

    /// `files` as a `FileDescriptorSet` (field 1, each file), as `protoc --descriptor_set_out` writes it.
    package static func fileDescriptorSet(_ files: [ProtoFile]) -> [UInt8] {
        var writer = ProtoWireWriter()
        for file in files { writer.message(1, fileDescriptorProto(file)) }
        return writer.bytes
    }

    private static func descriptorProto(_ message: ProtoMessage, syntax: ProtoFile.Syntax) -> [UInt8] {
        var writer = ProtoWireWriter(capacity: 128)
        writer.string(1, message.name)
        for field in message.fields { writer.message(2, fieldDescriptorProto(field, syntax: syntax)) }
        for nested in message.nestedMessages { writer.message(3, descriptorProto(nested, syntax: syntax)) }
        for value in message.nestedEnums { writer.message(4, enumDescriptorProto(value)) }
        if message.isMapEntry {
            var options = ProtoWireWriter()
            options.varintField(7, 1)
            writer.message(7, options.bytes)
        }
        for oneof in message.oneofs {
            var decl = ProtoWireWriter()
            decl.string(1, oneof)
            writer.message(8, decl.bytes)
        }
        return writer.bytes
    }

    /// A label's number in `FieldDescriptorProto.Label` (proto3's implicit presence is `LABEL_OPTIONAL`).
    static func labelNumber(_ label: ProtoField.Label) -> UInt64 {
        switch label {
        case .implicit, .optional: 1
        case .required: 2
        case .repeated: 3
        }
    }

    /// A type's number in `FieldDescriptorProto.Type`.
    static func typeNumber(_ type: ProtoFieldType) -> UInt64 {
        switch type {
        case .double: 1
        case .float: 2
        case .int64: 3
        case .uint64: 4
        case .int32: 5
        case .fixed64: 6
        case .fixed32: 7
        case .bool: 8
        case .string: 9
        case .group: 10
        case .message: 11
        case .bytes: 12
        case .uint32: 13
        case .enum: 14
        case .sfixed32: 15
        case .sfixed64: 16
        case .sint32: 17
        case .sint64: 18
        }
    }

    private static func fieldDescriptorProto(_ field: ProtoField, syntax: ProtoFile.Syntax) -> [UInt8] {
        var writer = ProtoWireWriter(capacity: 48)
        writer.string(1, field.name)
        writer.varintField(3, UInt64(bitPattern: Int64(field.number)))
        writer.varintField(4, labelNumber(field.label))
        writer.varintField(5, typeNumber(field.type))
        switch field.type {
        case .message(let name), .group(let name), .enum(let name): writer.string(6, name)
        default: break
        }
        if let defaultValue = field.defaultValue { writer.string(7, defaultValue) }
        let packedByDefault = syntax == .proto3 && field.label == .repeated && field.type.isPackable
        if field.label == .repeated, field.type.isPackable, field.isPacked != packedByDefault {
            var options = ProtoWireWriter()
            options.varintField(2, field.isPacked ? 1 : 0)
            writer.message(8, options.bytes)
        }
        if let oneofIndex = field.oneofIndex { writer.varintField(9, UInt64(bitPattern: Int64(oneofIndex))) }
        writer.string(10, field.jsonName)
        if field.isProto3Optional { writer.varintField(17, 1) }
        return writer.bytes
    }

    private static func enumDescriptorProto(_ value: ProtoEnum) -> [UInt8] {
        var writer = ProtoWireWriter(capacity: 64)
        writer.string(1, value.name)
        for item in value.values {
            var entry = ProtoWireWriter()
            entry.string(1, item.name)
            entry.varintField(2, UInt64(bitPattern: Int64(item.number)))
            writer.message(2, entry.bytes)
        }
        if Set(value.values.map(\.number)).count < value.values.count {
            var options = ProtoWireWriter()
            options.varintField(2, 1)
            writer.message(3, options.bytes)
        }
        return writer.bytes
    }

    private static func serviceDescriptorProto(_ service: ProtoService) -> [UInt8] {
        var writer = ProtoWireWriter(capacity: 64)
        writer.string(1, service.name)
        for method in service.methods {
            var entry = ProtoWireWriter()
            entry.string(1, method.name)
            entry.string(2, method.inputType)
            entry.string(3, method.outputType)
            if method.clientStreaming { entry.varintField(5, 1) }
            if method.serverStreaming { entry.varintField(6, 1) }
            writer.message(2, entry.bytes)
        }
        return writer.bytes
    }

    private static func fileOptions(_ options: [String: String]) -> [UInt8] {
        var writer = ProtoWireWriter()
        let known = options.compactMap { name, value in ProtoFileOption.known[name].map { ($0, value) } }
        for (option, value) in known.sorted(by: { $0.0.number < $1.0.number }) {
            switch option.kind {
            case .string: writer.string(option.number, value)
            case .bool: writer.varintField(option.number, value == "true" ? 1 : 0)
            case .optimizeMode: writer.varintField(option.number, ProtoFileOption.optimizeModes[value] ?? 1)
            }
        }
        return writer.bytes
    }
}
