import MockServerCore
/// HTTP header fields: ordered, repeatable, and looked up by name in any case, also as members
/// (`headers.accept`; `headers["Content-Type"]` for names with dashes). The one header list of
/// the package: requests, responses, stubs and their endpoints all use it.
@dynamicMemberLookup
public struct HTTPHeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as sent.
        public var name: String
        /// The value, without surrounding spaces.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from name–value pairs in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (any case); setting replaces every field of that
    /// name with one at the place of the first (or at the end), and `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value }
        set {
            let index = fields.firstIndex { $0.name.equalsIgnoringASCIICase(name) }
            fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
            guard let newValue else { return }
            fields.insert(Field(name: name, value: newValue), at: Swift.min(index ?? fields.count, fields.count))
        }
    }

    /// The value of the first field named as the member (any case): `headers.accept`,
    /// `headers.authorization`.
    public subscript(dynamicMember name: String) -> String? { self[name] }

    /// Every value of the fields named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Whether a comma-separated field named `name` has `token` among its values (any case), as
    /// `Connection: keep-alive, Upgrade` has `keep-alive`.
    public func hasToken(_ token: String, in name: String) -> Bool {
        // Over the bytes in place: this runs several times for every request and response.
        fields.contains { $0.name.equalsIgnoringASCIICase(name) && HTTPFieldText.list($0.value, contains: token) }
    }

    /// Adds a field at the end, keeping others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Makes room for `count` fields in all, so that adding them one by one allocates once.
    package mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends the fields to `bytes` as an HTTP/1.1 head carries them: `Name: value` and CR LF each.
    package func write(to bytes: inout [UInt8]) {
        for field in fields { Self.write(name: field.name, value: field.value, to: &bytes) }
    }

    /// Appends one field to `bytes` as an HTTP/1.1 head carries it: `Name: value` and CR LF.
    package static func write(name: String, value: String, to bytes: inout [UInt8]) {
        appendUTF8(of: name, to: &bytes)
        bytes.append(0x3A)
        bytes.append(0x20)
        appendUTF8(of: value, to: &bytes)
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// Appends `text`'s UTF-8 bytes to `bytes`: copied at once where the string holds them
    /// contiguously (native and small strings do), where appending its `utf8` view copies them
    /// one by one.
    package static func appendUTF8(of text: String, to bytes: inout [UInt8]) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes.append(contentsOf: text.utf8) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// `Name: value` lines.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension StringProtocol {
    /// Whether the text begins with `prefix` when ASCII letters are compared without case;
    /// `prefix` is given in lower case, and its other characters must have bit 0x20 set, as `/`,
    /// `-`, `.`, `+` and the digits do. Over the bytes in place where the string has them: iterating
    /// the UTF-8 view cost about 150 instructions a byte.
    package func hasPrefixIgnoringASCIICase(lowercased prefix: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        guard utf8.count >= expected.count else { return false }
        let fast = utf8.withContiguousStorageIfAvailable { text in
            for index in expected.indices where text[index] | 0x20 != expected[index] { return false }
            return true
        }
        return fast ?? zip(utf8, expected).allSatisfy { $0 | 0x20 == $1 }
    }
}

extension String {
    /// Whether the two strings are equal when ASCII letters are compared without case.
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        func same(_ a: UInt8, _ b: UInt8) -> Bool {
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
        }
        // Header lookups run this for every field of every request: over the bytes in place
        // where the strings have them (native and small strings do), not through iterators.
        let fast = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where !same(left[index], right[index]) { return false }
                return true
            }
        }
        if let fast, let result = fast { return result }
        return zip(utf8, other.utf8).allSatisfy(same)
    }
}
