/// Where a request goes, read off a URL's absolute string the way a client puts it on the wire:
/// the `Host` field and the request target. Read from the string in one pass: asking `URL` for its
/// host, port and path parses and percent-decodes it again for each, which costs more than the
/// rest of the request.
package struct WireAddress: Equatable, Sendable {
    /// `host` or `host:port` as the URL spells them (IPv6 in brackets, no user information), the
    /// port left out when it is the scheme's default; `nil` for a URL without a host.
    package let host: String?
    /// The path and query as the URL spells them (percent-encoded), without the fragment; `/`
    /// when the URL has no path.
    package let target: String

    /// The address of `absoluteString`, an absolute URL (`scheme:` then, usually, `//authority`).
    package init(absoluteString: String) {
        var string = absoluteString
        self = string.withUTF8 { text in
            let parts = Parts(text)
            func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self) }
            let target = parts.target.map { parts.targetNeedsSlash ? "/" + string($0) : string($0) } ?? "/"
            return Self(host: parts.host.map(string), target: target)
        }
    }

    /// Where the address's pieces lie in a URL's UTF-8 bytes, for a caller that copies them out
    /// without making a `String` of each (the request's wire bytes).
    package struct Parts {
        /// The `Host` field's bytes; `nil` for a URL without a host.
        package let host: Range<Int>?
        /// The target's bytes; `nil` when the target is `/` alone.
        package let target: Range<Int>?
        /// Whether a `/` goes before ``target``'s bytes (a URL whose path does not start with one).
        package let targetNeedsSlash: Bool

        /// Reads `text`, an absolute URL's UTF-8 bytes, in one pass.
        package init(_ text: UnsafeBufferPointer<UInt8>) {
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else {
                (host, target, targetNeedsSlash) = (nil, nil, false)
                return
            }
            var start = colon + 1
            var host: Range<Int>?
            if text.count - start >= 2, text[start] == UInt8(ascii: "/"), text[start + 1] == UInt8(ascii: "/") {
                var authorityStart = start + 2
                start = text[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? text.count
                if let at = text[authorityStart..<start].lastIndex(of: UInt8(ascii: "@")) { authorityStart = at + 1 }
                // A port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
                var nameEnd = start
                var port = start..<start
                if let portColon = text[authorityStart..<start].lastIndex(of: UInt8(ascii: ":")), !text[portColon..<start].contains(UInt8(ascii: "]")) {
                    nameEnd = portColon
                    port = portColon + 1..<start
                }
                if nameEnd > authorityStart {
                    let secure = colon == 5 && text[..<colon].elementsEqual("https".utf8) { $0 | 0x20 == $1 }
                    let keepsPort = !port.isEmpty && !text[port].elementsEqual((secure ? "443" : "80").utf8)
                    host = authorityStart..<(keepsPort ? start : nameEnd)
                }
            }
            let end = text[start...].firstIndex(of: UInt8(ascii: "#")) ?? text.count
            self.host = host
            target = start == end ? nil : start..<end
            targetNeedsSlash = start != end && text[start] != UInt8(ascii: "/")
        }
    }

    /// An address given by its parts.
    package init(host: String?, target: String) {
        self.host = host
        self.target = target
    }
}
