import MockServerHTTP

/// Reads a response as `curl -is` prints it.
enum RawResponse {
    static func parse(_ bytes: [UInt8]) throws(StubError) -> StubResponse {
        var lines: [String] = []
        var index = 0
        var bodyStart: Int?
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[index..<end]
            if line.last == 0x0D { line = line.dropLast() }
            index = end + 1
            if line.isEmpty {
                // curl -is shows a 100 Continue and its blank line first; skip such interim heads.
                if let status = lines.first, status.contains(" 100 ") || status.hasSuffix(" 100") {
                    lines.removeAll()
                    continue
                }
                bodyStart = min(index, bytes.count)
                break
            }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/") else {
            throw .malformedRawResponse("it does not start with a status line such as HTTP/1.1 200 OK")
        }
        guard let bodyStart else { throw .malformedRawResponse("no blank line ends the headers") }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw .malformedRawResponse("the status line \"\(statusLine)\" has no status code")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedRawResponse("the header line \"\(line)\" has no colon") }
            let name = String(line[..<colon])
            if name.equalsIgnoringASCIICase("transfer-encoding") || name.equalsIgnoringASCIICase("content-length") { continue }
            headers.add(name: name, value: line[line.index(after: colon)...].trimmingCharacters())
        }
        var response = StubResponse(status: status, headers: headers, body: Array(bytes[bodyStart...]))
        if parts.count == 3 { response.reason = String(parts[2]) }
        return response
    }
}
