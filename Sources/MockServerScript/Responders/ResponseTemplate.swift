import MockServerCore
/// Response text with substitutions, parsed once and rendered in one pass.
///
/// - `$0` is the whole input unit without its line terminator.
/// - `$1` … `$99` are capture groups; two digits are read when present, so `$10` is group 10.
///   A group that did not take part in the match, or that the pattern does not have, is empty.
/// - `$name` or `${name}` is a ``ScriptVariable``, or a variable a protocol adds (FTP's `$pasv`,
///   looked up in ``SubstitutionContext/protocolVariables`` when the text is rendered); `${name}`
///   lets a letter follow (`${size}KB`), and `${1}0` is group 1 followed by `0`.
/// - `${name:argument}` is a protocol's variable that takes an argument (HTTP's `${header:Name}`,
///   see ``ScriptProtocolVariable/init(_:argument:)``); the name is matched as written, then
///   lowercased. Unknown, it stays as written.
/// - `$$` is a literal `$`. A `$` followed by anything else, or an unknown `$word`, stays as written.
///
/// Replaced text is never scanned again, so a captured value containing `$1` is sent as is.
public struct ResponseTemplate: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal([UInt8])
        case group(Int)
        case variable(ScriptVariable)
        /// A name that may be a protocol's variable, with the text as written for when it is not.
        case named(String, written: [UInt8])
        /// A name and an argument (`${name:argument}`) that may be a protocol's variable with an
        /// argument, with the text as written for when it is not.
        case argument(String, String, written: [UInt8])
    }

    /// The text as written.
    public let source: String
    let segments: [Segment]

    /// Parses `source`. Parsing cannot fail: anything that is not a substitution is literal text.
    public init(_ source: String) {
        self.source = source
        self.segments = Self.parse(Array(source.utf8), arguments: nil).segments
    }

    /// Parses `source` in the arguments-only syntax of a format that has no groups or plain
    /// variables (HTTP's endpoints file): `${name:argument}` with `name` one of `names` is a
    /// substitution, every other byte (`$1`, `$$`, `$name`) literal text.
    ///
    /// - Throws: ``ArgumentProblem`` for a `${` without its `}`, or a `${…}` that is not
    ///   `${name:argument}` with one of `names`.
    package init(arguments source: String, names: Set<String>) throws(ArgumentProblem) {
        let parsed = Self.parse(Array(source.utf8), arguments: names)
        if let problem = parsed.problem { throw problem }
        self.source = source
        self.segments = parsed.segments
    }

    /// What is wrong with a template in the arguments-only syntax.
    package enum ArgumentProblem: Error, Sendable, Equatable {
        /// A `${` with no `}` after it: the text from the `${`, at most 30 characters of it.
        case unclosed(String)
        /// A `${…}` that is not `${name:argument}` with a known name: what is between the braces.
        case unknown(String)
    }

    /// Parses a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text as written.
    public var description: String { source }

    /// The bytes of the template when it has no substitutions.
    package var constantBytes: [UInt8]? {
        switch segments.count {
        case 0: []
        case 1: if case .literal(let bytes) = segments[0] { bytes } else { nil }
        default: nil
        }
    }

    /// Renders the template.
    ///
    /// - Parameters:
    ///   - input: the unit that `$0` stands for.
    ///   - groups: capture groups 1…n; `nil` for a group that did not take part in the match.
    ///   - context: the values of variables.
    public func render(input: InputUnit, groups: [String?] = [], context: SubstitutionContext) -> [UInt8] {
        if let constant = constantBytes { return constant }
        var output: [UInt8] = []
        output.reserveCapacity(source.utf8.count + 32)
        for segment in segments {
            switch segment {
            case .literal(let bytes): output.append(contentsOf: bytes)
            case .group(0): output.append(contentsOf: input.bytes)
            case .group(let index):
                if index <= groups.count, let value = groups[index - 1] { output.append(contentsOf: value.utf8) }
            case .variable(let variable): output.append(contentsOf: context.value(of: variable).utf8)
            case .named(let name, let written):
                switch context.protocolVariables[name]?.text {
                case .plain(let value): output.append(contentsOf: value(context).utf8)
                case .bytes(let value): output.append(contentsOf: value(context))
                case .argument, nil: output.append(contentsOf: written)
                }
            case .argument(let name, let argument, let written):
                if case .argument(let value) = (context.protocolVariables[name] ?? context.protocolVariables[name.lowercased()])?.text {
                    output.append(contentsOf: value(argument, context).utf8)
                } else {
                    output.append(contentsOf: written)
                }
            }
        }
        return output
    }

    /// Renders a template of the arguments-only syntax: each `${name:argument}` is what `value`
    /// gives for it, or stays as written when that is `nil`.
    package func render(arguments value: (_ name: String, _ argument: String) -> String?) -> String {
        if let constant = constantBytes { return String(decoding: constant, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(source.utf8.count + 32)
        for segment in segments {
            switch segment {
            case .literal(let bytes): output.append(contentsOf: bytes)
            case .argument(let name, let argument, let written): output.append(contentsOf: value(name, argument).map { Array($0.utf8) } ?? written)
            case .group, .variable, .named: break
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The segments of `bytes`, in one pass; with `names`, in the arguments-only syntax, stopping
    /// at its first problem.
    private static func parse(_ bytes: [UInt8], arguments names: Set<String>?) -> (segments: [Segment], problem: ArgumentProblem?) {
        var segments: [Segment] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { segments.append(.literal(literal)); literal = [] }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "$"), index + 1 < bytes.count else {
                literal.append(byte)
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if let names {
                guard next == UInt8(ascii: "{") else {
                    literal.append(byte)
                    index += 1
                    continue
                }
                guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                    return (segments, .unclosed(String(String(decoding: bytes[index...], as: UTF8.self).prefix(30))))
                }
                guard let segment = braced(bytes[(index + 2)..<close], written: bytes[index...close]),
                      case .argument(let name, _, _) = segment, names.contains(name) else {
                    return (segments, .unknown(String(decoding: bytes[(index + 2)..<close], as: UTF8.self)))
                }
                flush()
                segments.append(segment)
                index = close + 1
            } else if next == UInt8(ascii: "$") {
                literal.append(byte)
                index += 2
            } else if isDigit(next) {
                var end = index + 2
                if end < bytes.count && isDigit(bytes[end]) { end += 1 }
                flush()
                segments.append(.group(number(bytes[(index + 1)..<end])))
                index = end
            } else if next == UInt8(ascii: "{"), let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")),
                      let segment = braced(bytes[(index + 2)..<close], written: bytes[index...close]) {
                flush()
                segments.append(segment)
                index = close + 1
            } else if isLetter(next) {
                var end = index + 1
                while end < bytes.count && (isLetter(bytes[end]) || isDigit(bytes[end])) { end += 1 }
                let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                flush()
                segments.append(named(name, written: bytes[index..<end]))
                index = end
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flush()
        return (segments, nil)
    }

    private static func braced(_ name: ArraySlice<UInt8>, written: ArraySlice<UInt8>) -> Segment? {
        if !name.isEmpty && name.count <= 2 && name.allSatisfy(isDigit) { return .group(number(name)) }
        let text = String(decoding: name, as: UTF8.self)
        if let colon = name.firstIndex(of: UInt8(ascii: ":")) {
            let variable = name[..<colon]
            guard let first = variable.first, isLetter(first), variable.allSatisfy({ isLetter($0) || isDigit($0) }), colon + 1 < name.endIndex else { return nil }
            return .argument(String(decoding: variable, as: UTF8.self), String(decoding: name[(colon + 1)...], as: UTF8.self), written: Array(written))
        }
        guard let first = name.first, isLetter(first), name.allSatisfy({ isLetter($0) || isDigit($0) }) else { return nil }
        return named(text, written: written)
    }

    private static func named(_ name: String, written: ArraySlice<UInt8>) -> Segment {
        ScriptVariable(rawValue: name).map(Segment.variable) ?? .named(name, written: Array(written))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}
