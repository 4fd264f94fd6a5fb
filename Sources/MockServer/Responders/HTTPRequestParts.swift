import Foundation

/// The parts of an HTTP request unit that substitutions name: method, path, headers, body.
struct HTTPRequestParts {
    let method: [UInt8]
    let path: [UInt8]
    let headers: [(name: String, value: [UInt8])]
    private let bytes: [UInt8]
    private let bodyStart: Int
    private let chunked: Bool

    /// The body, de-chunked when it was sent chunked. Computed when asked for, so that substituting
    /// `$path` into a reply to a large upload does not copy the upload.
    var body: [UInt8] {
        let raw = Array(bytes[bodyStart...])
        return chunked ? Self.dechunk(raw) : raw
    }

    /// Splits a request as the request framer returns it; `nil` for anything else.
    init?(_ bytes: [UInt8]) {
        guard let lineEnd = bytes.firstIndex(of: 0x0A) else { return nil }
        let requestLine = bytes[..<lineEnd].split(separator: 0x20, omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        method = Array(requestLine[0])
        path = Array(requestLine[1])
        var headers: [(String, [UInt8])] = []
        var index = lineEnd + 1
        var bodyStart = bytes.count
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[index..<end]
            if line.last == 0x0D { line = line.dropLast() }
            if line.isEmpty {
                bodyStart = min(end + 1, bytes.count)
                break
            }
            if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                var value = line[(colon + 1)...]
                while value.first == 0x20 || value.first == 0x09 { value = value.dropFirst() }
                while value.last == 0x20 || value.last == 0x09 { value = value.dropLast() }
                headers.append((String(decoding: line[..<colon], as: UTF8.self).lowercased(), Array(value)))
            }
            index = end + 1
        }
        self.headers = headers
        self.bytes = bytes
        self.bodyStart = bodyStart
        chunked = headers.contains { $0.0 == "transfer-encoding" && String(decoding: $0.1, as: UTF8.self).lowercased().hasSuffix("chunked") }
    }

    /// The data of a chunked body without its framing (what arrived of it, if it is cut short).
    static func dechunk(_ raw: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while index < raw.count, let newline = raw[index...].firstIndex(of: 0x0A) {
            var sizeText = raw[index..<newline]
            if let semicolon = sizeText.firstIndex(of: UInt8(ascii: ";")) { sizeText = sizeText[..<semicolon] }
            let text = String(decoding: sizeText, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \r\t"))
            guard let size = Int(text, radix: 16), size > 0 else { break }
            let start = newline + 1
            let end = min(start + size, raw.count)
            data.append(contentsOf: raw[start..<end])
            index = end + 2
        }
        return data
    }

    /// The first header named `name` (case-insensitive).
    func header(_ name: String) -> [UInt8]? {
        let key = name.lowercased()
        return headers.first { $0.name == key }?.value
    }
}
