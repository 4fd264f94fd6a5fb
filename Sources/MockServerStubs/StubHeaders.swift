import MockServerHTTP

extension Stub {
    /// A request's headers, by name in any case or as members.
    @dynamicMemberLookup
    public struct Headers: Sendable {
        /// The fields in order.
        public let fields: HTTPHeaders

        init(_ fields: HTTPHeaders) {
            self.fields = fields
        }

        /// The first value of `name` (any case).
        public subscript(name: String) -> String? { fields[name] }

        /// The first value of the member's name (any case): `headers.accept`, `headers.authorization`.
        public subscript(dynamicMember name: String) -> String? { fields[name] }
    }
}
