import MockServerHTTP

/// What the recorder does with each field of an upstream's answer, decided from its name by the
/// same name sets as ever, but once per common name (``HTTPResponseFieldName/literals``, made when
/// the recorder is) rather than for every field of every answer: a field the response parser
/// noted as one of those literals (``HTTPResponseFieldIDs``) takes its literal's roles; any other
/// field asks the sets of its name.
struct RecordingFieldRoles: Sendable {
    /// The roles a field name can have.
    struct Role: OptionSet, Sendable {
        let rawValue: UInt8
        /// Concerns one connection (``HTTPHopByHop/hopByHop``): never forwarded nor recorded.
        static let hopByHop = Role(rawValue: 1 << 0)
        /// `Connection`: it may name more fields to drop.
        static let connection = Role(rawValue: 1 << 1)
        /// `Content-Length`: the server writes its own, and no recording keeps it.
        static let contentLength = Role(rawValue: 1 << 2)
        /// A URL that may point at the upstream (``HTTPRecorder``'s locations).
        static let location = Role(rawValue: 1 << 3)
        /// Masked by the recorder's mask.
        static let masked = Role(rawValue: 1 << 4)
        /// Describes the body (length, digests): dropped from a recording whose body was masked.
        static let bodyDescription = Role(rawValue: 1 << 5)
    }

    /// The roles of each of ``HTTPResponseFieldName/literals``, by index.
    private let literalRoles: [Role]
    /// The recorder's header mask.
    private let mask: HTTPRecorder.Mask

    /// The roles under `mask`.
    init(mask: HTTPRecorder.Mask) {
        self.mask = mask
        literalRoles = HTTPResponseFieldName.literals.map { Self.roles(of: $0, mask: mask) }
    }

    /// The roles of field `index` of `headers`, whose first fields' literals are `ids`.
    func roles(of index: Int, in headers: HTTPHeaderFields, ids: HTTPResponseFieldIDs) -> Role {
        if let literal = ids[index] { return literalRoles[literal] }
        return Self.roles(of: headers.fields[index].name, mask: mask)
    }

    /// The roles of a field named `name`, asked of each name set.
    func roles(of name: String) -> Role { Self.roles(of: name, mask: mask) }

    private static func roles(of name: String, mask: HTTPRecorder.Mask) -> Role {
        var roles: Role = []
        if HTTPHopByHop.hopByHop.contains(name) { roles.insert(.hopByHop) }
        if connection.contains(name) { roles.insert(.connection) }
        if contentLength.contains(name) { roles.insert(.contentLength) }
        if locations.contains(name) { roles.insert(.location) }
        if mask.masks(header: name) { roles.insert(.masked) }
        if bodyDescriptions.contains(name) { roles.insert(.bodyDescription) }
        return roles
    }

    private static let connection = HTTPFieldNames(["connection"])
    private static let contentLength = HTTPFieldNames(["content-length"])
    /// The fields whose value is a URL that may point at the upstream.
    static let locations = HTTPFieldNames(["location", "content-location"])
    /// The fields a masked body makes wrong: its length and digests.
    private static let bodyDescriptions = HTTPFieldNames(["content-length", "content-md5", "etag", "digest"])
}
