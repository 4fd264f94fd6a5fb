/// Reads a `google.protobuf.FileDescriptorSet` (as `protoc --descriptor_set_out --include_imports`
/// writes it) into files, with ``ProtoWireReader``: what ``ProtoDescriptorWriter`` writes, and
/// what the model keeps of the rest (unknown fields, extensions, reserved ranges, source info and
/// other options are skipped). Pure code.
package enum ProtoDescriptorReader {
    /// How deep messages may nest inside messages: a bound on the reader's recursion.
    package static let depthLimit = 100

    /// The files of a `FileDescriptorSet`, in its order.
    /// - Parameter name: the set's name (its path), for errors.
    /// - Throws: ``ProtoError`` naming the set when the bytes are not a descriptor set, a file uses
    ///   editions, or a type is left unresolved.
    package static func files(of bytes: [UInt8], name: String) throws(ProtoError) -> [ProtoFile] {
        do {
            var reader = ProtoWireReader(bytes)
            var files: [ProtoFile] = []
            while let (field, type) = try reader.tag() {
                if field == 1, type == .lengthDelimited {
                    files.append(try file(bytes, try reader.lengthDelimited(), setName: name))
                } else {
                    _ = try reader.skip(type, field: field)
                }
            }
            return files
        } catch let error as ProtoError {
            throw error
        } catch let error as ProtoWireError {
            throw ProtoError(file: name, line: 0, column: 0, reason: "is not a FileDescriptorSet: \(error)")
        } catch {
            throw ProtoError(file: name, line: 0, column: 0, reason: "\(error)")
        }
    }

    /// What a descriptor's bytes hold before they are sorted into the model.
    private typealias Fields = [(field: Int32, value: Value)]

    /// One field's value: a varint, or the range of a length-delimited one.
    private enum Value {
        case varint(UInt64)
        case bytes(Range<Int>)
        case other
    }

    /// The fields of the message in `range`, in order.
    private static func fields(_ bytes: [UInt8], _ range: Range<Int>) throws -> Fields {
        var reader = ProtoWireReader(bytes, range: range)
        var result: Fields = []
        while let (field, type) = try reader.tag() {
            switch type {
            case .varint: result.append((field, .varint(try reader.varint())))
            case .lengthDelimited: result.append((field, .bytes(try reader.lengthDelimited())))
            default:
                _ = try reader.skip(type, field: field)
                result.append((field, .other))
            }
        }
        return result
    }

    private static func text(_ bytes: [UInt8], _ value: Value) -> String? {
        guard case .bytes(let range) = value else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    private static func number(_ value: Value) -> UInt64? {
        guard case .varint(let number) = value else { return nil }
        return number
    }

    private static func file(_ bytes: [UInt8], _ range: Range<Int>, setName: String) throws -> ProtoFile {
        let fields = try fields(bytes, range)
        var file = ProtoFile(name: "", syntax: .proto2)
        func fail(_ reason: String) -> ProtoError {
            ProtoError(file: setName, line: 0, column: 0, reason: file.name.isEmpty ? reason : "\(file.name): \(reason)")
        }
        for (field, value) in fields {
            switch field {
            case 1: file.name = text(bytes, value) ?? ""
            case 2: file.package = text(bytes, value) ?? ""
            case 3: file.dependencies.append(text(bytes, value) ?? "")
            case 10: file.publicDependencies += try indexes(bytes, value)
            case 11: file.weakDependencies += try indexes(bytes, value)
            case 12:
                switch text(bytes, value) {
                case "proto3": file.syntax = .proto3
                case "proto2", "", nil: file.syntax = .proto2
                case let other?: throw fail("syntax \"\(other)\" is not supported (editions are not)")
                }
            case 14: throw fail("editions are not supported")
            default: break
            }
        }
        for (field, value) in fields {
            guard case .bytes(let inner) = value else { continue }
            switch field {
            case 4: file.messages.append(try message(bytes, inner, scope: file.package, syntax: file.syntax, depth: 1, fail: fail))
            case 5: file.enums.append(try enumType(bytes, inner, scope: file.package, syntax: file.syntax))
            case 6: file.services.append(try service(bytes, inner, scope: file.package))
            case 8: file.options = try fileOptions(bytes, inner)
            default: break
            }
        }
        return file
    }

    /// A repeated int32's values: one varint, or several packed.
    private static func indexes(_ bytes: [UInt8], _ value: Value) throws -> [Int] {
        switch value {
        case .varint(let number): return [Int(Int32(truncatingIfNeeded: number))]
        case .bytes(let range):
            var reader = ProtoWireReader(bytes, range: range)
            var result: [Int] = []
            while !reader.isAtEnd { result.append(Int(Int32(truncatingIfNeeded: try reader.varint()))) }
            return result
        case .other: return []
        }
    }

    private static func fullName(_ scope: String, _ name: String) -> String { scope.isEmpty ? name : scope + "." + name }

    private static func message(_ bytes: [UInt8], _ range: Range<Int>, scope: String, syntax: ProtoFile.Syntax, depth: Int,
                                fail: (String) -> ProtoError) throws -> ProtoMessage {
        guard depth <= depthLimit else { throw fail("messages nested more than \(depthLimit) deep") }
        let fields = try fields(bytes, range)
        let name = fields.first { $0.field == 1 }.flatMap { text(bytes, $0.value) } ?? ""
        var message = ProtoMessage(name: name, fullName: fullName(scope, name))
        for (field, value) in fields {
            guard case .bytes(let inner) = value else { continue }
            switch field {
            case 2: message.fields.append(try self.field(bytes, inner, syntax: syntax, fail: fail))
            case 3: message.nestedMessages.append(try self.message(bytes, inner, scope: message.fullName, syntax: syntax, depth: depth + 1, fail: fail))
            case 4: message.nestedEnums.append(try enumType(bytes, inner, scope: message.fullName, syntax: syntax))
            case 7: message.isMapEntry = try self.fields(bytes, inner).contains { $0.field == 7 && number($0.value) == 1 }
            case 8: message.oneofs.append(try self.fields(bytes, inner).first { $0.field == 1 }.flatMap { text(bytes, $0.value) } ?? "")
            default: break
            }
        }
        return message
    }

    private static func field(_ bytes: [UInt8], _ range: Range<Int>, syntax: ProtoFile.Syntax, fail: (String) -> ProtoError) throws -> ProtoField {
        var name = "", jsonName: String?, typeName = "", defaultValue: String?
        var number: Int32 = 0, labelNumber: UInt64 = 1, typeNumber: UInt64 = 0
        var oneofIndex: Int?, isProto3Optional = false, packed: Bool?
        for (field, value) in try fields(bytes, range) {
            switch field {
            case 1: name = text(bytes, value) ?? ""
            case 3: number = Int32(truncatingIfNeeded: self.number(value) ?? 0)
            case 4: labelNumber = self.number(value) ?? 1
            case 5: typeNumber = self.number(value) ?? 0
            case 6: typeName = text(bytes, value) ?? ""
            case 7: defaultValue = text(bytes, value)
            case 8:
                if case .bytes(let inner) = value, let option = try fields(bytes, inner).last(where: { $0.field == 2 }) {
                    packed = self.number(option.value) == 1
                }
            case 9: oneofIndex = Int(Int32(truncatingIfNeeded: self.number(value) ?? 0))
            case 10: jsonName = text(bytes, value)
            case 17: isProto3Optional = self.number(value) == 1
            default: break
            }
        }
        let scalars: [UInt64: ProtoFieldType] = [1: .double, 2: .float, 3: .int64, 4: .uint64, 5: .int32, 6: .fixed64, 7: .fixed32, 8: .bool,
                                                 9: .string, 12: .bytes, 13: .uint32, 15: .sfixed32, 16: .sfixed64, 17: .sint32, 18: .sint64]
        let type: ProtoFieldType
        switch typeNumber {
        case 10: type = .group(typeName)
        case 11: type = .message(typeName)
        case 14: type = .enum(typeName)
        default:
            guard let scalar = scalars[typeNumber] else { throw fail("field \(name) has no type, or one that is not resolved (\(typeName))") }
            type = scalar
        }
        if case .message = type, !typeName.hasPrefix(".") { throw fail("field \(name)'s type \(typeName) is not resolved") }
        let label: ProtoField.Label = switch labelNumber {
        case 2: .required
        case 3: .repeated
        default: syntax == .proto3 && !isProto3Optional ? .implicit : .optional
        }
        var result = ProtoField(name: name, jsonName: jsonName, number: number, label: label, type: type, oneofIndex: oneofIndex,
                                isProto3Optional: isProto3Optional, defaultValue: defaultValue)
        result.isPacked = label == .repeated && type.isPackable && (packed ?? (syntax == .proto3))
        result.hasExplicitJSONName = jsonName != nil && jsonName != ProtoField.lowerCamelCase(name)
        return result
    }

    private static func enumType(_ bytes: [UInt8], _ range: Range<Int>, scope: String, syntax: ProtoFile.Syntax) throws -> ProtoEnum {
        let fields = try fields(bytes, range)
        let name = fields.first { $0.field == 1 }.flatMap { text(bytes, $0.value) } ?? ""
        var result = ProtoEnum(name: name, fullName: fullName(scope, name), values: [], isClosed: syntax == .proto2)
        for (field, value) in fields where field == 2 {
            guard case .bytes(let inner) = value else { continue }
            var valueName = "", valueNumber: Int32 = 0
            for (entryField, entryValue) in try self.fields(bytes, inner) {
                if entryField == 1 { valueName = text(bytes, entryValue) ?? "" }
                if entryField == 2 { valueNumber = Int32(truncatingIfNeeded: number(entryValue) ?? 0) }
            }
            result.values.append(.init(name: valueName, number: valueNumber))
        }
        return result
    }

    private static func service(_ bytes: [UInt8], _ range: Range<Int>, scope: String) throws -> ProtoService {
        let fields = try fields(bytes, range)
        let name = fields.first { $0.field == 1 }.flatMap { text(bytes, $0.value) } ?? ""
        var service = ProtoService(name: name, fullName: fullName(scope, name), methods: [])
        for (field, value) in fields where field == 2 {
            guard case .bytes(let inner) = value else { continue }
            var method = ProtoService.Method(name: "", inputType: "", outputType: "")
            for (entryField, entryValue) in try self.fields(bytes, inner) {
                switch entryField {
                case 1: method.name = text(bytes, entryValue) ?? ""
                case 2: method.inputType = text(bytes, entryValue) ?? ""
                case 3: method.outputType = text(bytes, entryValue) ?? ""
                case 5: method.clientStreaming = number(entryValue) == 1
                case 6: method.serverStreaming = number(entryValue) == 1
                default: break
                }
            }
            service.methods.append(method)
        }
        return service
    }

    private static func fileOptions(_ bytes: [UInt8], _ range: Range<Int>) throws -> [String: String] {
        var options: [String: String] = [:]
        let byNumber = Dictionary(ProtoFileOption.known.map { ($0.value.number, ($0.key, $0.value.kind)) }, uniquingKeysWith: { first, _ in first })
        for (field, value) in try fields(bytes, range) {
            guard let (name, kind) = byNumber[field] else { continue }
            switch kind {
            case .string: options[name] = text(bytes, value)
            case .bool: options[name] = number(value).map { $0 != 0 ? "true" : "false" }
            case .optimizeMode: options[name] = number(value).flatMap { mode in ProtoFileOption.optimizeModes.first { $0.value == mode }?.key }
            }
        }
        return options
    }
}
