// The names six public types had before 2026-11-29, kept for code written against them while it
// moves to the new ones. They are a module of their own, which nothing else imports, because the
// old names are the names of public types of swift-nio, NIOSSL, Hummingbird and FlyingFox: in the
// `MockServer` module they would make every unqualified use ambiguous in a file that imports one of
// those beside it, and a deprecated alias cannot be told apart from a type by the compiler. Import
// this module only in test files that import none of those packages (CHANGELOG.md lists the renames).
@_exported import MockServer

@available(*, deprecated, renamed: "NetworkAddress", message: "import MockServer and use NetworkAddress")
public typealias SocketAddress = NetworkAddress

@available(*, deprecated, renamed: "SocketCallError", message: "import MockServer and use SocketCallError")
public typealias SocketError = SocketCallError

@available(*, deprecated, renamed: "HTTPHeaderFields", message: "import MockServer and use HTTPHeaderFields")
public typealias HTTPHeaders = HTTPHeaderFields

@available(*, deprecated, renamed: "HTTPMockResponder", message: "import MockServer and use HTTPMockResponder")
public typealias HTTPResponder = HTTPMockResponder

@available(*, deprecated, renamed: "TLSSettings", message: "import MockServer and use TLSSettings")
public typealias TLSConfiguration = TLSSettings

@available(*, deprecated, renamed: "JSONNode", message: "import MockServer and use JSONNode")
public typealias JSONValue = JSONNode
