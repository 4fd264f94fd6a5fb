import MockServerCore

/// What a gRPC-Web request asks for (the gRPC project's PROTOCOL-WEB): its content type, which its
/// answer goes out in, and whether its bodies are binary (`application/grpc-web`,
/// `application/grpc-web+proto`) or base64 text (`application/grpc-web-text`,
/// `application/grpc-web-text+proto`). Pure code.
package struct GRPCWebFormat: Sendable, Hashable {
    /// How a gRPC-Web body's bytes are carried.
    package enum Encoding: Sendable, Hashable {
        /// The frames as they are.
        case binary
        /// The frames in base64 (`-text`): a request's possibly in several padded pieces, an
        /// answer's one padded piece per chunk.
        case text
    }

    /// The media type that gRPC-Web content types begin with.
    private static let binaryType = "application/grpc-web"
    /// The media type of the base64 form.
    private static let textType = "application/grpc-web-text"

    /// How the bodies are carried.
    package let encoding: Encoding
    /// The content type of the answer: the request's media type, lower-cased, without parameters
    /// (`application/grpc-web-text+proto`).
    package let contentType: String

    /// The format of a request of `contentType`, or `nil` when it is not gRPC-Web (plain
    /// `application/grpc`, say). A suffix after `+` (`+proto`) is kept; parameters after `;` are not.
    package init?(contentType: String) {
        // Every gRPC call and gRPC-Web call passes here, most of them plain gRPC: those are told by
        // their first bytes alone, without the String work below (which cost 9,600 instructions a
        // call: Benchmarks/grpc-unary.sh's section in BENCHMARKS.md).
        guard Self.beginsWithWebType(contentType) else { return nil }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingSpaces().lowercased()
        func isType(_ type: String) -> Bool { mediaType == type || mediaType.hasPrefix(type + "+") }
        if isType(Self.textType) {
            encoding = .text
        } else if isType(Self.binaryType) {
            encoding = .binary
        } else {
            return nil
        }
        self.contentType = mediaType
    }

    /// Whether `contentType`, after leading spaces and tabs, begins with `application/grpc-web` in
    /// any case of its ASCII letters: what every gRPC-Web content type does. (No other character
    /// lower-cases to one of these letters alone, so this refuses nothing that `init?(contentType:)`
    /// accepts.)
    private static func beginsWithWebType(_ contentType: String) -> Bool {
        Substring(contentType.utf8.drop { $0 == 0x20 || $0 == 0x09 }).hasPrefixIgnoringASCIICase(lowercased: "application/grpc-web")
    }

    /// The format `request` asks for by its `Content-Type`, or `nil` when it is not a gRPC-Web call.
    package init?(of request: HTTPMockRequest?) {
        guard let type = request?.headers["Content-Type"] else { return nil }
        self.init(contentType: type)
    }

    /// The body of `request` as gRPC's length-prefixed messages: the body itself, or for
    /// `application/grpc-web-text` its base64 decoded. Every reader of a gRPC request's messages (the
    /// transcript's notes, matching) starts here, so that gRPC-Web text reads as gRPC does.
    ///
    /// - Throws: ``GRPCWebTextError`` when a text body is not base64.
    package static func messageBytes(of request: HTTPMockRequest) throws(GRPCWebTextError) -> [UInt8] {
        guard let format = GRPCWebFormat(of: request), format.encoding == .text else { return request.body }
        return try GRPCWebText.decode(request.body)
    }
}
