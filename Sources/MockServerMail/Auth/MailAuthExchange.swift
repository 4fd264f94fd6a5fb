import Foundation

/// The server side of one SASL exchange (RFC 4422) for PLAIN, LOGIN, CRAM-MD5 or XOAUTH2, checked
/// against a ``MailStore``'s users: a state value that knows no protocol, so that SMTP's `AUTH`,
/// POP3's `AUTH` and IMAP's `AUTHENTICATE` share it. The protocol frames what goes over the wire
/// (base64 in, base64 out, its own prefixes and reply codes); the exchange sees decoded bytes.
///
/// ```swift
/// guard var exchange = MailAuthExchange(mechanism: "PLAIN", initialResponse: argument, challenge: "<1.2@host>") else { /* 504 */ }
/// var step = exchange.start(login: store)
/// while case .challenge(let bytes) = step {
///     send("334 " + base64(bytes))
///     step = exchange.respond(nextLine(), login: store)     // the client's line, without its line end
/// }
/// // .accepted, .refused, .malformed or .cancelled
/// ```
///
/// With accounts configured, each mechanism checks the account's password (CRAM-MD5 its HMAC, XOAUTH2
/// its bearer token as the password). Open (no account), every mechanism accepts any login and proof.
/// A refused XOAUTH2 login first sends Google's error challenge (a base64 JSON status); the client's
/// answer to it (an empty line, or RFC 7628's `^A`) then gives ``Step/refused(user:_:)``.
package struct MailAuthExchange: Sendable {
    /// Where the exchange stands.
    private enum State: Sendable {
        /// Created; ``start(login:)`` not called yet.
        case initial
        /// Waiting for the response to an empty challenge (PLAIN, XOAUTH2 without an initial response).
        case awaitingResponse
        /// LOGIN: waiting for the user name (after `Username:`).
        case awaitingUser
        /// LOGIN: waiting for the password of `user` (after `Password:`).
        case awaitingPassword(user: String)
        /// CRAM-MD5: waiting for `user digest`.
        case awaitingDigest
        /// XOAUTH2 refused: the error challenge is sent; the client's answer to it ends the exchange.
        case awaitingErrorAcknowledgement(user: String, MailLoginResult)
        /// Accepted, refused, malformed or cancelled: nothing more to answer.
        case finished
    }

    /// The mechanism in use.
    package let mechanism: MailAuthMechanism
    /// The initial response (RFC 4954's argument after the mechanism), decoded on ``start(login:)``.
    private let initialResponse: String?
    /// CRAM-MD5's challenge, `<unique@host>`.
    private let challenge: String
    private var state: State = .initial
    /// The login name the client gave, once it has given one (for a fault rule on a user, or the transcript).
    package private(set) var user: String?

    /// Google's XOAUTH2 error challenge: the status a refused token gets, as JSON.
    package static let xoauth2ErrorChallenge = Array(#"{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}"#.utf8)

    /// An exchange for `mechanism` (any case), or nil for a mechanism not known here (SMTP's `504`).
    ///
    /// - Parameters:
    ///   - mechanism: the mechanism's name as the client gave it.
    ///   - initialResponse: the base64 initial response given with the command, if any; `=` is
    ///     an empty one (RFC 4954 §4).
    ///   - challenge: CRAM-MD5's challenge, a unique `<digits.digits@host>` (RFC 2195); unused by the others.
    package init?(mechanism: some StringProtocol, initialResponse: String?, challenge: String) {
        guard let known = MailAuthMechanism(name: mechanism) else { return nil }
        self.mechanism = known
        self.initialResponse = initialResponse
        self.challenge = challenge
    }

    /// Whether the exchange is over (accepted, refused, malformed or cancelled).
    package var isFinished: Bool {
        if case .finished = state { true } else { false }
    }

    /// The first step: the initial response checked if there is one, else the first challenge.
    package mutating func start(login store: MailStore) -> Step {
        guard case .initial = state else { return finish(.malformed("the exchange has already started")) }
        guard let initialResponse else {
            switch mechanism {
            case .plain, .xoauth2:
                state = .awaitingResponse
                return .challenge([])
            case .login:
                state = .awaitingUser
                return .challenge(Array("Username:".utf8))
            case .cramMD5:
                state = .awaitingDigest
                return .challenge(Array(challenge.utf8))
            }
        }
        if mechanism == .cramMD5 { return finish(.malformed("CRAM-MD5 takes no initial response")) }
        state = mechanism == .login ? .awaitingUser : .awaitingResponse
        if initialResponse == "=" { return answer([], login: store) }
        return respond(Array(initialResponse.utf8), login: store)
    }

    /// The step that answers the client's line (base64, without its line end; `*` cancels).
    package mutating func respond(_ line: some Collection<UInt8>, login store: MailStore) -> Step {
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        switch state {
        case .finished: return .malformed("the exchange is over")
        case .initial: return finish(.malformed("a response came before the exchange started"))
        default: break
        }
        if text == "*" { return finish(.cancelled) }
        // After XOAUTH2's error challenge any answer (empty, RFC 7628's ^A, or not base64) ends it refused.
        if case .awaitingErrorAcknowledgement(let name, let result) = state { return finish(.refused(user: name, result)) }
        guard let decoded = Data(base64Encoded: text) else { return finish(.malformed("the response is not base64")) }
        return answer(Array(decoded), login: store)
    }

    /// The step that answers a decoded response in the current state.
    private mutating func answer(_ response: [UInt8], login store: MailStore) -> Step {
        switch state {
        case .awaitingResponse:
            return mechanism == .xoauth2 ? answerXOAUTH2(response, login: store) : answerPlain(response, login: store)
        case .awaitingUser:
            guard let name = Self.text(response), !name.isEmpty else { return finish(.malformed("the user name is empty or not UTF-8")) }
            user = name
            state = .awaitingPassword(user: name)
            return .challenge(Array("Password:".utf8))
        case .awaitingPassword(let name):
            guard let password = Self.text(response) else { return finish(.malformed("the password is not UTF-8")) }
            return conclude(user: name, store.login(user: name, password: password))
        case .awaitingDigest:
            return answerCRAM(response, login: store)
        case .awaitingErrorAcknowledgement(let name, let result):
            return finish(.refused(user: name, result))
        case .initial, .finished:
            return finish(.malformed("no response is expected"))
        }
    }

    /// PLAIN (RFC 4616): `authzid NUL authcid NUL password`; the authorisation identity is not checked.
    private mutating func answerPlain(_ response: [UInt8], login store: MailStore) -> Step {
        guard let (name, password) = Self.plainCredentials(response) else {
            return finish(.malformed("PLAIN needs authzid NUL authcid NUL password, a user, in UTF-8"))
        }
        user = name
        return conclude(user: name, store.login(user: name, password: password))
    }

    /// PLAIN's user and password, or nil when `response` is not `authzid NUL authcid NUL password`
    /// in UTF-8 with a user.
    private static func plainCredentials(_ response: [UInt8]) -> (user: String, password: String)? {
        let fields = response.split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count == 3, let name = text(fields[1]), !name.isEmpty, let password = text(fields[2]) else { return nil }
        return (name, password)
    }

    /// CRAM-MD5 (RFC 2195): `user SP digest`, the digest 32 hexadecimal digits of HMAC-MD5 keyed by the password.
    private mutating func answerCRAM(_ response: [UInt8], login store: MailStore) -> Step {
        guard let space = response.lastIndex(of: UInt8(ascii: " ")), let name = Self.text(response[..<space]), !name.isEmpty,
              let digest = Self.text(response[(space + 1)...])?.lowercased(), digest.count == 32,
              digest.allSatisfy(\.isHexDigit) else {
            return finish(.malformed("CRAM-MD5 needs a user, a space and 32 hexadecimal digits"))
        }
        user = name
        let challenge = Array(self.challenge.utf8)
        let result = store.login(user: name) { password in
            MailDigest.hex(MailDigest.hmacMD5(key: Array(password.utf8), message: challenge)) == digest
        }
        return conclude(user: name, result)
    }

    /// XOAUTH2: `user=NAME ^A auth=Bearer TOKEN ^A ^A`; the token is checked as the password.
    private mutating func answerXOAUTH2(_ response: [UInt8], login store: MailStore) -> Step {
        guard let (name, token) = Self.xoauth2Credentials(response) else {
            return finish(.malformed("XOAUTH2 needs user= and auth=Bearer fields, in UTF-8"))
        }
        user = name
        let result = store.login(user: name, password: token)
        if result.isAccepted { return conclude(user: name, result) }
        state = .awaitingErrorAcknowledgement(user: name, result)
        return .challenge(Self.xoauth2ErrorChallenge)
    }

    /// XOAUTH2's user and bearer token, or nil when `response` lacks either or is not UTF-8.
    private static func xoauth2Credentials(_ response: [UInt8]) -> (user: String, token: String)? {
        var name: String?, token: String?
        for field in response.split(separator: 1) {
            guard let text = text(field) else { return nil }
            if text.hasPrefix("user=") {
                name = String(text.dropFirst(5))
            } else if text.hasPrefix("auth=") {
                let value = text.dropFirst(5)
                guard value.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
                token = String(value.dropFirst(7))
            }
        }
        guard let name, !name.isEmpty, let token else { return nil }
        return (name, token)
    }

    /// The login name the initial response claims, read without checking anything (PLAIN's
    /// authcid, LOGIN's user name, XOAUTH2's `user=`): for a fault rule on a user, asked before
    /// the exchange starts. Nil without an initial response, or when it cannot be read.
    package var claimedUser: String? {
        guard let initialResponse, initialResponse != "=", let decoded = Data(base64Encoded: initialResponse) else { return nil }
        switch mechanism {
        case .plain: return Self.plainCredentials(Array(decoded))?.user
        case .login: return Self.text(decoded).flatMap { $0.isEmpty ? nil : $0 }
        case .xoauth2: return Self.xoauth2Credentials(Array(decoded))?.user
        case .cramMD5: return nil
        }
    }

    /// Ends the exchange with the login's result.
    private mutating func conclude(user name: String, _ result: MailLoginResult) -> Step {
        if case .accepted(let address) = result { return finish(.accepted(address)) }
        return finish(.refused(user: name, result))
    }

    /// Ends the exchange with `step`.
    private mutating func finish(_ step: Step) -> Step {
        state = .finished
        return step
    }

    /// `bytes` as a string if they are UTF-8.
    private static func text(_ bytes: some Collection<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}
