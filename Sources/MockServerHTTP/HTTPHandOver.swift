import MockServerCore

/// A hand-over of a whole connection to another protocol that shares HTTP's listener, recognised
/// by the bytes it starts with (HTTP/2's client preface, for h2c with prior knowledge): the
/// HTTP connection's driver gives that protocol's driver the connection, the bytes read so far
/// included, before it parses a request. The server composes it; HTTP's target knows no protocol.
///
/// ```swift
/// driver.handOver = HTTPHandOver(name: "HTTP/2", preface: preface, upgradeToken: "h2c") { responder, upgraded in makeDriver(responder, upgraded) }
/// ```
///
/// A class: every HTTP/1.1 request looks at it, and a copy of a struct of arrays, strings and a
/// closure cost a retain and release of each (through generic value witnesses) every time.
package final class HTTPHandOver: Sendable {
    /// The protocol's name, for the log.
    package let name: String
    /// The bytes a connection of that protocol starts with.
    package let preface: [UInt8]
    /// The `Upgrade` token of a request that switches to the protocol (`h2c`), or nil: answered `101
    /// Switching Protocols`, then the protocol's driver answers that request.
    package let upgradeToken: String?
    /// Fields an upgrade request must have and name in `Connection` beside `Upgrade` (`HTTP2-Settings`).
    package let upgradeFields: [String]
    /// Whether the connection must be that protocol's: a connection that does not start with the
    /// preface is refused with `505 HTTP Version Not Supported`.
    package let isRequired: Bool
    /// The protocol's driver for the connection, answering with the HTTP connection's responders;
    /// `upgraded` is the request of an upgrade, which it answers first.
    package let makeDriver: @Sendable (_ responder: @escaping @Sendable () -> any HTTPMockResponder, _ upgraded: HTTPMockRequest?) -> any StreamDriver

    /// A hand-over to `name`, for connections that start with `preface`.
    /// Whether `request` asks to switch to the protocol: its token in `Upgrade`, and `Upgrade` and
    /// each of ``upgradeFields`` present and named in `Connection` (RFC 9110 §7.8).
    package func isUpgrade(_ request: HTTPMockRequest) -> Bool {
        // Most requests have no `Upgrade` field: one pass over the names' lengths rules them out.
        guard let upgradeToken, request.headers.fields.contains(where: { $0.name.utf8.count == 7 && $0.name.equalsIgnoringASCIICase("Upgrade") }),
              request.headers.hasToken(upgradeToken, in: "Upgrade"), request.headers.hasToken("upgrade", in: "Connection") else { return false }
        return upgradeFields.allSatisfy { request.headers.contains($0) && request.headers.hasToken($0, in: "Connection") }
    }

    package init(name: String, preface: [UInt8], upgradeToken: String? = nil, upgradeFields: [String] = [], isRequired: Bool = false,
                 makeDriver: @escaping @Sendable (_ responder: @escaping @Sendable () -> any HTTPMockResponder, _ upgraded: HTTPMockRequest?) -> any StreamDriver) {
        self.name = name
        self.preface = preface
        self.upgradeToken = upgradeToken
        self.upgradeFields = upgradeFields
        self.isRequired = isRequired
        self.makeDriver = makeDriver
    }
}
