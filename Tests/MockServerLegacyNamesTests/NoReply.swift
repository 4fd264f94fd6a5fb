import MockServerLegacyNames

/// A responder written against the old protocol name.
@available(*, deprecated, message: "uses the deprecated names on purpose")
struct NoReply: HTTPResponder {
    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? { nil }
}
