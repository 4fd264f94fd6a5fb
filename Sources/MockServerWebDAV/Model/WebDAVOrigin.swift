import MockServerHTTP

/// The scheme, host and port a URI names, for telling whether a `COPY` or `MOVE`'s `Destination`
/// is on this server (RFC 4918 §9.8.4, §9.9.4): hosts compare without case, and a missing port is
/// the scheme's default (RFC 9110 §4.2.3).
struct WebDAVOrigin: Equatable {
    /// The scheme, lowercased; `nil` when the request does not say (a target in origin form: the
    /// handler does not know whether the connection is TLS).
    let scheme: String?
    /// The host, lowercased, IPv6 literals with their brackets.
    let host: String
    /// The port written after the host; `nil` when there is none.
    let port: Int?

    /// The origin of an absolute URI (`scheme://authority…`); `nil` when `uri` is not one.
    init?(absoluteURI uri: String) {
        guard let separator = uri.range(of: "://"), !uri[..<separator.lowerBound].isEmpty,
              uri[..<separator.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              uri.first?.isLetter == true else { return nil }
        let rest = uri[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        self.init(scheme: String(uri[..<separator.lowerBound]), authority: authority)
    }

    /// The origin of `authority` (`host`, `host:port`, `[v6]:port`) under `scheme`.
    init(scheme: String?, authority: Substring) {
        self.scheme = scheme?.lowercased()
        var host = authority
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            // An empty port is the default one (RFC 3986 §3.2.3); a port that is not digits keeps
            // its text in the host, so that it matches nothing.
            if digits.isEmpty { port = nil } else if let number = WebDAVHandler.decimal(digits) { port = number } else { host = authority }
        }
        self.host = host.lowercased()
        self.port = port
    }

    /// The port of a scheme without one written: 80 for http, 443 for https.
    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// Whether `destination` names this origin: the same host and port, and the same scheme when
    /// this one is known (http or https when it is not).
    func serves(_ destination: WebDAVOrigin) -> Bool {
        guard let destinationScheme = destination.scheme else { return false }
        if let scheme { guard scheme == destinationScheme else { return false } } else {
            guard destinationScheme == "http" || destinationScheme == "https" else { return false }
        }
        let ownPort = port ?? Self.defaultPort(scheme ?? destinationScheme)
        let destinationPort = destination.port ?? Self.defaultPort(destinationScheme)
        return host == destination.host && ownPort == destinationPort
    }

    /// The origin as text: `scheme://host:port`, or `host:port` when the scheme is not known.
    var description: String {
        if host.isEmpty && scheme == nil { return "none: no Host header" }
        return (scheme.map { $0 + "://" } ?? "") + host + (port.map { ":\($0)" } ?? "")
    }
}
