import Foundation

extension ProtoParser {
    /// An option's value as written.
    enum Constant: Equatable {
        /// A name: `true`, `false`, an enum value, `inf`, `nan`.
        case identifier(String)
        /// A number, with its sign.
        case number(negative: Bool, token: ProtoToken)
        /// `-inf` or `-nan`.
        case negativeIdentifier(String)
        case string([UInt8])
        /// A `{ … }` message value (of a custom option): parsed for balance and dropped.
        case aggregate
    }

    /// The options of one field in `[…]` that the model keeps.
    struct FieldOptions {
        var defaultValue: (Constant, ProtoParsedFile.Location)?
        var jsonName: String?
        var packed: Bool?
    }

    /// `name = value ;` after `option`: the name (custom names in parentheses, as written), the value
    /// and where the value starts.
    mutating func parseOptionStatement() throws -> (String, Constant, ProtoParsedFile.Location) {
        let name = try parseOptionName()
        try expectSymbol("=", "after the option's name")
        let at = location
        let value = try parseConstant()
        try expectSymbol(";", "after the option")
        return (name, value, at)
    }

    /// An option's name: `java_package`, `(my.ext).field`, `(.my.ext)`.
    mutating func parseOptionName() throws -> String {
        var name = ""
        repeat {
            if !name.isEmpty { name += "." }
            if consumeSymbol("(") {
                name += "(" + (try expectDottedName("an extension's name", allowLeadingDot: true)) + ")"
                try expectSymbol(")", "after the extension's name")
            } else {
                name += try expectIdentifier("an option's name")
            }
        } while consumeSymbol(".")
        return name
    }

    /// An option's value: a name, a signed number, a string, or an aggregate `{ … }`.
    mutating func parseConstant() throws -> Constant {
        switch peek.kind {
        case .identifier(let word):
            advance()
            return .identifier(word)
        case .integer, .float:
            return .number(negative: false, token: advance())
        case .string(let bytes):
            advance()
            return .string(bytes)
        case .symbol("-"):
            advance()
            switch peek.kind {
            case .integer, .float: return .number(negative: true, token: advance())
            case .identifier(let word) where word == "inf" || word == "nan":
                advance()
                return .negativeIdentifier(word)
            default: throw error("expected a number after '-', found \(peek.shown)")
            }
        case .symbol("{"):
            try skipAggregate()
            return .aggregate
        default:
            throw error("expected an option's value, found \(peek.shown)")
        }
    }

    /// Moves past a `{ … }` text-format value, its braces balanced, nested at most ``depthLimit`` deep.
    private mutating func skipAggregate() throws {
        let start = location
        let outer = depth
        repeat {
            switch advance().kind {
            case .symbol("{"): try enter()
            case .symbol("}"): depth -= 1
            case .end: throw error("an option's value that is never closed ('}')", at: start)
            default: break
            }
        } while depth > outer
    }

    /// A field's `[name = value, …]`, if written.
    mutating func parseFieldOptions() throws -> FieldOptions {
        var options = FieldOptions()
        guard consumeSymbol("[") else { return options }
        repeat {
            let nameAt = location
            let name = try parseOptionName()
            try expectSymbol("=", "after the option's name")
            let at = location
            let value = try parseConstant()
            switch name {
            case "default":
                guard options.defaultValue == nil else { throw error("a second default", at: nameAt) }
                options.defaultValue = (value, at)
            case "json_name":
                guard case .string(let bytes) = value, let text = Self.utf8(bytes) else { throw error("json_name takes a UTF-8 string", at: at) }
                options.jsonName = text
            case "packed":
                guard case .identifier(let word) = value, word == "true" || word == "false" else { throw error("packed takes true or false", at: at) }
                options.packed = word == "true"
            default:
                break
            }
        } while consumeSymbol(",")
        try expectSymbol("]", "after the field's options")
        return options
    }

    /// A scalar field's default as a descriptor writes it: integers in decimal, floats as C's `%g`
    /// at the shortest precision that reads back (`1e+10` for a double is `10000000000`), a
    /// string's text, bytes C-escaped (octal for what is not printable ASCII), `true`/`false`.
    func descriptorDefault(_ value: Constant, for type: ProtoFieldType, at: ProtoParsedFile.Location) throws -> String {
        func wrong(_ expected: String) -> ProtoError { error("a default for a \(type.name) field must be \(expected)", at: at) }
        switch type {
        case .string:
            guard case .string(let bytes) = value else { throw wrong("a string") }
            guard let text = Self.utf8(bytes) else { throw error("a string field's default is not valid UTF-8", at: at) }
            return text
        case .bytes:
            guard case .string(let bytes) = value else { throw wrong("a string") }
            return Self.cEscaped(bytes)
        case .bool:
            guard case .identifier(let word) = value, word == "true" || word == "false" else { throw wrong("true or false") }
            return word
        case .float, .double:
            switch value {
            case .identifier(let word) where word == "inf" || word == "nan": return word
            case .negativeIdentifier(let word): return "-" + word
            case .number(let negative, let token):
                let text: String
                switch token.kind {
                case .integer(let written):
                    // A decimal integer past 64 bits is still a double's value, as protoc reads it.
                    if let magnitude = token.integerValue {
                        text = String(magnitude)
                    } else if !written.hasPrefix("0") {
                        text = written
                    } else {
                        throw error("\(token.shown) is too large", at: at)
                    }
                case .float(let written): text = written
                default: throw wrong("a number")
                }
                guard let magnitude = Double(text) else { throw wrong("a number") }
                let number = negative ? -magnitude : magnitude
                return type == .float ? Self.shortest(Float(number)) : Self.shortest(number)
            default: throw wrong("a number")
            }
        case .int32, .sint32, .sfixed32, .int64, .sint64, .sfixed64, .uint32, .fixed32, .uint64, .fixed64:
            guard case .number(let negative, let token) = value, case .integer = token.kind else { throw wrong("an integer") }
            guard let magnitude = token.integerValue else { throw error("\(token.shown) is out of range for a \(type.name) field", at: at) }
            let (lowest, highest): (UInt64, UInt64) = switch type {
            case .int32, .sint32, .sfixed32: (1 << 31, (1 << 31) - 1)
            case .int64, .sint64, .sfixed64: (1 << 63, (1 << 63) - 1)
            case .uint32, .fixed32: (0, UInt64(UInt32.max))
            default: (0, UInt64.max)
            }
            guard negative ? magnitude <= lowest : magnitude <= highest else {
                throw error("\(negative ? "-" : "")\(magnitude) is out of range for a \(type.name) field", at: at)
            }
            return negative && magnitude != 0 ? "-\(magnitude)" : "\(magnitude)"
        case .message, .group, .enum:
            throw wrong("a scalar")
        }
    }

    /// `value` as C's `%.15g` (`%.17g` when that does not read back), as protobuf writes a double.
    static func shortest(_ value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value.isNaN { return "nan" }
        let short = String(format: "%.15g", value)
        return Double(short) == value ? short : String(format: "%.17g", value)
    }

    /// `value` as C's `%.6g` (`%.9g` when that does not read back), as protobuf writes a float.
    static func shortest(_ value: Float) -> String {
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value.isNaN { return "nan" }
        let short = String(format: "%.6g", Double(value))
        return Float(short) == value ? short : String(format: "%.9g", Double(value))
    }

    /// Bytes C-escaped as protobuf writes a bytes default: `\n`, `\r`, `\t`, `\"`, `\'`, `\\`, and
    /// three octal digits for every other byte that is not printable ASCII.
    static func cEscaped(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x22: text += "\\\""
            case 0x27: text += "\\'"
            case 0x5C: text += "\\\\"
            case 0x20 ..< 0x7F: text.append(Character(Unicode.Scalar(byte)))
            default:
                let octal = String(byte, radix: 8)
                text += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return text
    }
}
