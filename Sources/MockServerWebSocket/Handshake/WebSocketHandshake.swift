import Foundation
import MockServerHTTP
import MockServerCore

/// The opening handshake of RFC 6455, section 4.2: whether a client's HTTP request asks for a
/// WebSocket as the RFC requires, and the server's answer.
package enum WebSocketHandshake {
    /// The server's answer to an opening request.
    package enum Answer: Sendable, Hashable {
        /// `101 Switching Protocols`: the connection speaks WebSocket from the next byte on, with
        /// the subprotocol chosen, if any.
        case accept(response: [UInt8], subprotocol: String?)
        /// An HTTP error response, after which the connection closes, and the reason in a few words.
        case reject(response: [UInt8], reason: String)
    }

    /// The longest opening request head taken (16 KiB), blank line included; a longer one gets
    /// `431 Request Header Fields Too Large`, on a WebSocket script's listener and on an HTTP
    /// server's upgrade alike.
    package static let maximumLength = 16 * 1024

    /// The refusal of an opening request whose head is `length` bytes (or more, when it has not
    /// ended yet), over ``maximumLength``.
    package static func tooLong(_ length: Int) -> Answer {
        reject(431, "Request Header Fields Too Large",
               "the opening request's head is \(length) bytes, longer than the \(maximumLength) bytes a WebSocket handshake may have")
    }

    /// The index just past the blank line that ends an HTTP head in `bytes` (CRLF or bare LF
    /// line ends), if it has arrived.
    package static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 1..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0A { return index + 1 }
            if index >= 3, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return index + 1 }
        }
        return nil
    }

    /// The GUID that RFC 6455 appends to the client's key.
    private static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for the client's `Sec-WebSocket-Key`.
    package static func acceptValue(for key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The answer to `request`.
    ///
    /// - Parameters:
    ///   - path: the only path the script serves, if it names one (a query is allowed after it).
    ///   - subprotocols: the subprotocols the server speaks, in its order of preference; the first of
    ///     them that the client offers is chosen. A client that offers some when the server speaks
    ///     none gets none (RFC 6455 leaves that choice to the client).
    package static func answer(_ request: HTTPMockRequest, path: String?, subprotocols: [String]) -> Answer {
        let headLength = endOfHead(in: request.raw) ?? request.raw.count
        guard headLength <= maximumLength else { return tooLong(headLength) }
        guard request.method == "GET" else {
            return reject(405, "Method Not Allowed", "a WebSocket opens with GET, not \(request.method)", headers: ["Allow: GET"])
        }
        guard request.version == "HTTP/1.1" else {
            return reject(400, "Bad Request", "a WebSocket opens with an HTTP/1.1 request, not \(request.version)")
        }
        if let path, request.path != path {
            return reject(404, "Not Found", "this server's WebSocket is at \(path), not \(request.path)")
        }
        let headers = request.headers
        guard headers.hasToken("websocket", in: "Upgrade") else {
            // One Connection field naming both (RFC 9110, section 7.8: a 426 names the upgrade).
            return reject(426, "Upgrade Required", "the request has no \"Upgrade: websocket\"", headers: ["Upgrade: websocket"], connection: "Upgrade, close")
        }
        guard headers.hasToken("upgrade", in: "Connection") else {
            return reject(400, "Bad Request", "the request's Connection header does not name upgrade")
        }
        guard headers["Sec-WebSocket-Version"]?.trimmingSpaces() == "13" else {
            return reject(426, "Upgrade Required", "Sec-WebSocket-Version is \(headers["Sec-WebSocket-Version"].map { "\"\($0)\"" } ?? "missing"); this server speaks 13",
                          headers: ["Sec-WebSocket-Version: 13"])
        }
        // RFC 6455, section 11.3.1: the field must not appear more than once.
        let keys = headers.values(for: "Sec-WebSocket-Key")
        guard keys.count <= 1 else {
            return reject(400, "Bad Request", "\(keys.count) Sec-WebSocket-Key header fields; a handshake has one")
        }
        guard let key = keys.first?.trimmingSpaces(),
              let nonce = Data(base64Encoded: key), nonce.count == 16 else {
            return reject(400, "Bad Request", "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        let offered = headers.values(for: "Sec-WebSocket-Protocol")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces() }
        let chosen = subprotocols.first { offered.contains($0) }
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(acceptValue(for: key))\r\n"
        if let chosen { response += "Sec-WebSocket-Protocol: \(chosen)\r\n" }
        response += "\r\n"
        return .accept(response: Array(response.utf8), subprotocol: chosen)
    }

    /// An error response whose body says what was wrong; `connection` is its one `Connection` field's value.
    package static func reject(_ status: Int, _ phrase: String, _ reason: String, headers: [String] = [], connection: String = "close") -> Answer {
        let body = reason + "\n"
        var response = "HTTP/1.1 \(status) \(phrase)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: \(connection)\r\n"
        for header in headers { response += header + "\r\n" }
        response += "\r\n" + body
        return .reject(response: Array(response.utf8), reason: reason)
    }
}
