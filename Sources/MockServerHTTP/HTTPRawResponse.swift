import MockServerCore
/// Reads a response written out as text, the way `curl -is` prints one and mock-data `.http` files
/// hold one: a status line, header lines, a blank line, then the body to the end. Lines end in
/// CRLF or LF.
///
/// `Transfer-Encoding` and `Content-Length` are dropped: captured responses often carry
/// `Transfer-Encoding: chunked` or a stale length over a plain body, and the body is served as it
/// stands, with its true length.
package enum HTTPRawResponse {
    /// Why the text is not a response, and on which line.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line, from 1.
        package let line: Int
        /// What is wrong there.
        package let message: String

        package var description: String { "line \(line): \(message)" }
    }

    /// The response `bytes` hold. With `skippingInterim`, `1xx` heads before the final one (curl
    /// shows `100 Continue` that way) are skipped.
    package static func parse(_ bytes: [UInt8], skippingInterim: Bool = false) throws(Failure) -> HTTPMockResponse {
        var lines: [(number: Int, text: String)] = []
        var index = 0
        var lineNumber = 0
        var bodyStart: Int?
        while index < bytes.count {
            lineNumber += 1
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[index..<end]
            if line.last == 0x0D { line = line.dropLast() }
            index = end + 1
            if line.isEmpty {
                if lines.isEmpty { throw Failure(line: lineNumber, message: "a status line such as HTTP/1.1 200 OK must come first, not a blank line") }
                if skippingInterim, (100..<200).contains(try statusCode(of: lines[0])) {
                    lines.removeAll()
                    continue
                }
                bodyStart = min(index, bytes.count)
                break
            }
            let text = String(decoding: line, as: UTF8.self)
            if !lines.isEmpty, text.firstIndex(of: ":").map({ !isToken(text[..<$0]) }) ?? true {
                throw Failure(line: lineNumber, message: "\"\(text.prefix(60))\" is not a header line (Name: value); a blank line must end the headers before the body")
            }
            lines.append((lineNumber, text))
        }
        guard let status = lines.first else { throw Failure(line: 1, message: "the response is empty: a status line such as HTTP/1.1 200 OK must come first") }
        guard let bodyStart else {
            throw Failure(line: lineNumber + (bytes.last == 0x0A ? 1 : 0),
                          message: "no blank line ends the headers (one must follow them even when there is no body)")
        }
        let code = try statusCode(of: status)
        var headers = HTTPHeaderFields()
        for line in lines.dropFirst() {
            guard let colon = line.text.firstIndex(of: ":") else { continue }
            let name = String(line.text[..<colon])
            if name.equalsIgnoringASCIICase("transfer-encoding") || name.equalsIgnoringASCIICase("content-length") { continue }
            headers.add(name: name, value: line.text[line.text.index(after: colon)...].trimmingSpaces())
        }
        let parts = status.text.split(separator: " ", maxSplits: 2)
        return HTTPMockResponse(status: code, reason: parts.count == 3 ? String(parts[2]) : nil, headers: headers, body: Array(bytes[bodyStart...]))
    }

    private static func statusCode(of line: (number: Int, text: String)) throws(Failure) -> Int {
        let parts = line.text.split(separator: " ", maxSplits: 2)
        guard let version = parts.first, version.hasPrefix("HTTP/") else {
            throw Failure(line: line.number, message: "\"\(line.text.prefix(60))\" is not a status line such as HTTP/1.1 200 OK")
        }
        guard parts.count >= 2, parts[1].count == 3, let code = Int(parts[1]), (100...999).contains(code) else {
            throw Failure(line: line.number, message: "the status line \"\(line.text.prefix(60))\" has no three-digit status code")
        }
        return code
    }

    private static func isToken(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (0x21..<0x7f).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
        }
    }
}
