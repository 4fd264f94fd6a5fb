import MockServerCore

/// The byte classes of RFC 9110 §5.6 and RFC 9112 that a strict HTTP/1.1 parser checks, and the
/// checks of a request line's and a field line's parts, each throwing the problem it names.
///
/// Pure byte code: the parser calls it on slices of its buffer, without copying them.
package enum HTTPSyntax {
    /// Whether `byte` may appear in a token (a method or a field name): `!#$%&'*+-.^_`|~`, digits
    /// and letters (RFC 9110 §5.6.2). Two 64-bit masks, one bit a byte below 128: no table to load.
    @inline(__always)
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        if byte < 64 { return (tokenMaskLow >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (tokenMaskHigh >> UInt64(byte - 64)) & 1 == 1 }
        return false
    }

    /// Bytes 0 to 63 that are token characters: `!#$%&'*+-.` and the digits.
    private static let tokenMaskLow: UInt64 = 0x03FF_6CFA_0000_0000
    /// Bytes 64 to 127 that are token characters: the letters, `^_`|~`.
    private static let tokenMaskHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether `byte` is a hexadecimal digit, in either case.
    @inline(__always)
    package static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    /// Whether `byte` is a control character: below 0x20, or DEL.
    @inline(__always)
    package static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    /// The first bytes of a TLS handshake record (content type 22, version 3.x), what a client that
    /// speaks HTTPS sends first.
    package static func looksLikeTLS(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, first == 0x16 else { return false }
        return bytes.count < 2 || bytes[bytes.startIndex + 1] == 0x03
    }

    /// The bytes as text for an error message: at most 60 of them, control characters escaped.
    package static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(60), as: UTF8.self).escapedForDisplay
        return bytes.count > 60 ? text + "…" : text
    }

    /// Checks the start of a request whose first line has not all arrived: refuses at once bytes
    /// that cannot begin a request (a TLS handshake on a plain port, a method that is not a token),
    /// rather than waiting for a line end that a client speaking another protocol never sends.
    package static func checkRequestStart(_ bytes: ArraySlice<UInt8>) throws(FramingError) {
        if looksLikeTLS(bytes) {
            throw .malformedRequest("the request starts with a TLS handshake (byte 0x16): a client speaking HTTPS to a plain HTTP port")
        }
        if let first = bytes.first, first == 0x20 || first == 0x09 {
            throw .malformedRequest("the request line starts with whitespace")
        }
        for byte in bytes {
            if byte == 0x20 || byte == 0x0D || byte == 0x0A { return }
            guard isTokenByte(byte) else {
                throw .malformedRequest("the method is not a token: \(quoted(bytes.prefix { $0 != 0x20 && $0 != 0x0A }))")
            }
        }
    }

    /// The HTTP version a request line names, as (major, minor) digits, or the problem with it.
    package static func version(_ word: ArraySlice<UInt8>) throws(FramingError) -> (major: UInt8, minor: UInt8) {
        let start = word.startIndex
        guard word.count == 8, word[start] == UInt8(ascii: "H"), word[start + 1] == UInt8(ascii: "T"), word[start + 2] == UInt8(ascii: "T"),
              word[start + 3] == UInt8(ascii: "P"), word[start + 4] == UInt8(ascii: "/"), word[start + 6] == UInt8(ascii: "."),
              (0x30...0x39).contains(word[start + 5]), (0x30...0x39).contains(word[start + 7]) else {
            throw .malformedRequest("the version is not HTTP/x.y: \(quoted(word))")
        }
        return (word[start + 5] - 0x30, word[start + 7] - 0x30)
    }

    /// Checks the three words of a request line: a token method, a target without control
    /// characters, and version 1.0 or 1.1 (another `HTTP/x.y` is ``FramingError/unsupportedVersion(_:)``,
    /// `505`); the HTTP/2 connection preface is refused by name.
    package static func checkRequestLine(method: ArraySlice<UInt8>, target: ArraySlice<UInt8>, version word: ArraySlice<UInt8>) throws(FramingError) {
        guard method.allSatisfy(isTokenByte) else { throw .malformedRequest("the method is not a token: \(quoted(method))") }
        if let control = target.first(where: isControl) {
            throw .malformedRequest("the request target holds a control character (\(hex(control))): \(quoted(target))")
        }
        let (major, minor) = try version(word)
        if method.elementsEqual("PRI".utf8) && target.elementsEqual("*".utf8) && major == 2 {
            throw .malformedRequest("the HTTP/2 connection preface (PRI * HTTP/2.0) on an HTTP/1.1 listener")
        }
        guard major == 1 && minor <= 1 else { throw .unsupportedVersion(String(decoding: word, as: UTF8.self)) }
        try checkTarget(target, method: method)
    }

    /// Checks a request target's form (RFC 9112 §3.2) and path as nginx does: origin-form (`/path`)
    /// or absolute-form (`http://host/path`) for every method, `*` for `OPTIONS` only, `host:port`
    /// for `CONNECT` (a listener that opens no tunnels refuses the method itself); a path that holds `%00` or whose dot
    /// segments (`..`, `%2e%2e`, with `/` or `%2f`) climb above the root is refused.
    package static func checkTarget(_ target: ArraySlice<UInt8>, method: ArraySlice<UInt8>) throws(FramingError) {
        // The lengths first: the usual target and method are neither.
        if method.count == 7 && method.elementsEqual("CONNECT".utf8) {
            // authority-form (RFC 9112 §3.2.3): host:port and nothing else, no path to climb.
            let colon = target.lastIndex(of: UInt8(ascii: ":"))
            let port = colon.map { target[target.index(after: $0)...] } ?? target[target.endIndex...]
            guard let colon, colon > target.startIndex, (1...5).contains(port.count), port.allSatisfy({ (0x30...0x39).contains($0) }),
                  !target.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "\\") }) else {
                throw .malformedRequest("the target of CONNECT is not host:port (authority-form): \(quoted(target))")
            }
            return
        }
        if target.count == 1 && target.first == UInt8(ascii: "*") {
            guard method.elementsEqual("OPTIONS".utf8) else {
                throw .malformedRequest("the request target * (asterisk-form) is for OPTIONS only, not \(quoted(method))")
            }
            return
        }
        var path = target[...]
        if target.first != UInt8(ascii: "/") {
            // absolute-form: a scheme (a letter, then letters, digits, + - .), "://", an authority.
            let scheme = target.prefix { $0 != UInt8(ascii: ":") }
            let rest = target[scheme.endIndex...]
            guard let letter = scheme.first, (0x41...0x5A).contains(letter) || (0x61...0x7A).contains(letter),
                  scheme.allSatisfy({ isTokenByte($0) && $0 != UInt8(ascii: "%") }), rest.starts(with: "://".utf8) else {
                throw .malformedRequest("the request target is neither /path (origin-form) nor scheme://host/path (absolute-form): \(quoted(target))")
            }
            let authority = rest.dropFirst(3)
            path = authority[(authority.firstIndex(of: UInt8(ascii: "/")) ?? authority.endIndex)...]
        }
        if let problem = pathProblem(path) {
            throw .malformedRequest("the request target's path \(problem): \(quoted(target))")
        }
    }

    /// What is wrong with a path (without its query) as nginx sees it, or `nil`: `holds %00`, or
    /// `climbs above the root (a .. segment)` when its segments, decoded (`%2e` is `.`, `%2f`, `%5c`
    /// and a backslash are separators too, as nginx decodes them), go above `/`.
    package static func pathProblem(_ path: ArraySlice<UInt8>) -> String? {
        // A segment is known by its decoded length and whether it is all dots: nothing is copied.
        var depth = 0
        var length = 0
        var allDots = true
        var index = path.startIndex
        var bytes = path.endIndex
        // The path ends at a query or a fragment; the end counts as one more separator.
        if let end = path.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { bytes = end }
        while index <= bytes {
            var byte = index < bytes ? path[index] : UInt8(ascii: "/")
            var step = 1
            if index < bytes, byte == UInt8(ascii: "%"), path.distance(from: index, to: bytes) >= 3,
               let high = hexValue(path[index + 1]), let low = hexValue(path[index + 2]) {
                byte = high << 4 | low
                step = 3
                if byte == 0 { return "holds %00" }
            }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") {
                if allDots && length == 2 {
                    depth -= 1
                    if depth < 0 { return "climbs above the root (a .. segment)" }
                } else if length > 0 && !(allDots && length == 1) {
                    depth += 1
                }
                (length, allDots) = (0, true)
            } else {
                length += 1
                allDots = allDots && byte == UInt8(ascii: ".")
            }
            index += step
        }
        return nil
    }

    /// The value of a hexadecimal digit, or `nil`.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Checks a `Host` value as nginx does: no whitespace or control character, no slash or backslash,
    /// no `..`, and not starting with `.`.
    package static func checkHost(_ value: ArraySlice<UInt8>) throws(FramingError) {
        // One pass in place: a space, a control character, a slash or a backslash anywhere, a dot
        // first or after a dot.
        let refused = value.withUnsafeBufferPointer { bytes in
            var previous = UInt8(ascii: ".")
            for byte in bytes {
                if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") { return true }
                if byte == UInt8(ascii: ".") && previous == UInt8(ascii: ".") { return true }
                previous = byte
            }
            return false
        }
        if refused {
            throw .malformedRequest("the Host header field is not a host name or address: \(quoted(value))")
        }
    }

    /// Checks one field line (without its CR LF) and returns its name and value (without the
    /// optional whitespace around it): refuses an obs-fold line, a line without a colon, whitespace
    /// before the colon, a name that is not a token, and a control character in the value (a CR
    /// there is a bare CR: the line's own ends before its CR LF).
    @inline(__always)
    package static func field(_ line: ArraySlice<UInt8>) throws(FramingError) -> (name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
        // One pass over the bytes in place for the common, valid line; a line it doubts is read
        // again by ``checkedField(_:)``, which names the problem.
        // The colon's offset, and the value's without the spaces and tabs around it (found in the
        // same pass: an all-space value is empty, at the line's end).
        let found: (colon: Int, value: Range<Int>)? = line.withUnsafeBufferPointer { bytes in
            guard let first = bytes.first, isTokenByte(first) else { return nil }
            var index = 1
            while index < bytes.count && bytes[index] != UInt8(ascii: ":") {
                guard isTokenByte(bytes[index]) else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            let colon = index
            index += 1
            var valueStart = bytes.count
            var valueEnd = bytes.count
            while index < bytes.count {
                // Visible ASCII and the space in one comparison; then UTF-8 and the tab.
                let byte = bytes[index]
                guard byte &- 0x20 < 0x5F || byte >= 0x80 || byte == 0x09 else { return nil }
                if byte != 0x20 && byte != 0x09 {
                    if valueStart == bytes.count { valueStart = index }
                    valueEnd = index + 1
                }
                index += 1
            }
            return (colon, valueStart..<valueEnd)
        }
        if let found {
            let start = line.startIndex
            return (line[start..<start + found.colon], line[start + found.value.lowerBound..<start + found.value.upperBound])
        }
        return try checkedField(line)
    }

    /// ``field(_:)`` for a line the fast pass doubted: each rule checked in turn, the first broken
    /// one thrown by name.
    private static func checkedField(_ line: ArraySlice<UInt8>) throws(FramingError) -> (name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
        guard let first = line.first else { throw .malformedRequest("an empty header line") }
        if first == 0x20 || first == 0x09 {
            throw .malformedRequest("an obs-fold line (a header line that starts with whitespace): \(quoted(line))")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformedRequest("a header line has no colon: \(quoted(line))")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty else { throw .malformedRequest("a header field has an empty name: \(quoted(line))") }
        if let last = name.last, last == 0x20 || last == 0x09 {
            throw .malformedRequest("whitespace between a field name and its colon: \(quoted(line[...colon]))")
        }
        guard name.allSatisfy(isTokenByte) else {
            throw .malformedRequest("a header field name is not a token: \(quoted(name))")
        }
        let value = line[(colon + 1)...].trimmingSpaces()
        if let control = value.first(where: { isControl($0) && $0 != 0x09 }) {
            if control == 0x0D { throw .malformedRequest("a bare CR in the request head: \(quoted(line))") }
            throw .malformedRequest("the value of \(String(decoding: name, as: UTF8.self)) holds a control character (\(hex(control)))")
        }
        return (name, value)
    }

    /// A byte as `0x0d`.
    package static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }

    /// The value of a hexadecimal chunk size, or `nil` when it is greater than `limit` (checked
    /// before each step, so that no size overflows); throws when it is not hexadecimal.
    package static func chunkSize(_ text: ArraySlice<UInt8>, limit: Int) throws(FramingError) -> Int? {
        guard !text.isEmpty else { throw .malformedRequest("a chunk size is empty") }
        var value = 0
        for byte in text {
            guard let digitValue = hexValue(byte) else { throw .malformedRequest("a chunk size is not hexadecimal: \(quoted(text))") }
            let digit = Int(digitValue)
            // value * 16 + digit > limit, without computing it.
            guard value <= limit / 16, value * 16 <= limit - digit else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    /// The value of a `Content-Length`, or `nil` when it is greater than `limit`; throws when it is
    /// not a string of digits.
    package static func contentLength(_ text: ArraySlice<UInt8>, limit: Int) throws(FramingError) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .malformedRequest("Content-Length is not a number: \(quoted(text))")
        }
        var value = 0
        for byte in text {
            let digit = Int(byte - 0x30)
            guard value <= limit / 10, value * 10 <= limit - digit else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
