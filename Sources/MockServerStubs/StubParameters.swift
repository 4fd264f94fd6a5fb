import MockServerCore
import MockServerHTTP

extension Stub {
    /// Named values of a request (path parameters, form fields), by name or as members:
    /// `request.pathParameters.version`.
    @dynamicMemberLookup
    public struct Parameters: Sendable, Equatable {
        /// Every value of each name, in the order they came.
        public let all: [String: [String]]

        /// Creates parameters from names and their values in order.
        public init(_ all: [String: [String]] = [:]) {
            self.all = all
        }

        /// The first value of `name`.
        public subscript(name: String) -> String? { all[name]?.first }

        /// The first value of the member's name.
        public subscript(dynamicMember name: String) -> String? { self[name] }

        /// Every value of `name`, in order (a repeated query key gives several).
        public func values(_ name: String) -> [String] { all[name] ?? [] }

        /// Whether there are none.
        public var isEmpty: Bool { all.isEmpty }

        /// Parses `a=1&b=2&a=3` (form or query encoding: `+` is a space, `%XX` decoded).
        public static func decoding(formEncoded text: Substring) -> Stub.Parameters {
            var all: [String: [String]] = [:]
            for field in HTTPFormFields.parse(text) { all[field.name, default: []].append(field.value) }
            return Stub.Parameters(all)
        }
    }
}
