extension ProtoParser {
    /// `Name { values }` after `enum`: values numbered in int32's range, the first 0 in proto3, a
    /// number used twice only with `allow_alias = true`. Its values are declared in `scope` (C++'s
    /// rule: they are siblings of the enum, not inside it). Closed in proto2.
    mutating func parseEnum(scope: String) throws -> ProtoEnum {
        let at = location
        let name = try expectIdentifier("the enum's name")
        let fullName = Self.join(scope, name)
        declare(fullName, .enumType, at: at)
        var result = ProtoEnum(name: name, fullName: fullName, values: [], isClosed: syntax == .proto2)
        try expectSymbol("{", "to open enum \(name)")
        try enter()
        var allowAlias: (Bool, ProtoParsedFile.Location)?
        var reservedNumbers: [ClosedRange<Int64>] = []
        var reservedNames: Set<String> = []
        var locations: [ProtoParsedFile.Location] = []
        while !consumeSymbol("}") {
            guard peek.kind != .end else { throw error("enum \(name) is not closed ('}')") }
            if consumeSymbol(";") { continue }
            let next = tokens[position + 1].kind
            if next != .symbol("="), consumeKeyword("option") {
                let (option, value, valueAt) = try parseOptionStatement()
                if option == "allow_alias" {
                    guard case .identifier(let word) = value, word == "true" || word == "false" else { throw error("allow_alias takes true or false", at: valueAt) }
                    allowAlias = (word == "true", valueAt)
                }
                continue
            }
            if next != .symbol("="), consumeKeyword("reserved") {
                try parseReserved(into: &reservedNumbers, names: &reservedNames, max: Int64(Int32.max), min: Int64(Int32.min))
                continue
            }
            let valueAt = location
            let valueName = try expectIdentifier("an enum value's name")
            try expectSymbol("=", "after the enum value's name")
            let numberAt = location
            let negative = consumeSymbol("-")
            guard case .integer = peek.kind else { throw error("expected an enum value's number, found \(peek.shown)") }
            guard let magnitude = advance().integerValue, negative ? magnitude <= 1 << 31 : magnitude < 1 << 31 else {
                throw error("enum values must be within int32's range", at: numberAt)
            }
            let number = Int32(truncatingIfNeeded: negative ? -Int64(magnitude) : Int64(magnitude))
            _ = try parseFieldOptions()
            try expectSymbol(";", "after enum value \(valueName)")
            if syntax == .proto3, result.values.isEmpty, number != 0 {
                throw error("the first value of a proto3 enum must be 0", at: numberAt)
            }
            if reservedNumbers.contains(where: { $0.contains(Int64(number)) }) { throw error("enum value \(valueName) uses reserved number \(number)", at: numberAt) }
            if reservedNames.contains(valueName) { throw error("enum value name \(valueName) is reserved", at: valueAt) }
            declare(Self.join(scope, valueName), .enumValue, at: valueAt)
            result.values.append(.init(name: valueName, number: number))
            locations.append(numberAt)
        }
        depth -= 1
        guard !result.values.isEmpty else { throw error("enum \(name) has no values", at: at) }
        var seen: [Int32: String] = [:]
        var aliased = false
        for (index, value) in result.values.enumerated() {
            if let other = seen[value.number] {
                guard allowAlias?.0 == true else {
                    throw error("\(value.name) uses number \(value.number) like \(other): set option allow_alias = true to allow it", at: locations[index])
                }
                aliased = true
            }
            seen[value.number] = value.name
        }
        if let (allowed, allowAt) = allowAlias, allowed, !aliased {
            throw error("allow_alias is set but no two values of enum \(name) share a number", at: allowAt)
        }
        return result
    }
}
