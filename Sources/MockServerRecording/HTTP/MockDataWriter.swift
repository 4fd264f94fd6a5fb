import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerMockData

/// Writes each exchange as a `.http` file named by VOKMockUrlProtocol's convention, so that a
/// ``MockDataResponder`` on the same folder answers the same request with the same bytes.
///
/// A request recorded again replaces its file (a name holds one response). The name comes from
/// the masked request (a `token` query parameter's value is `MASKED` there), so no secret is in a
/// name; the replay masks an incoming request the same way before its second lookup.
final class MockDataWriter: RecordingSink {
    let folder: URL
    /// The files written, added to for every exchange.
    private let written = Locked(Set<String>())

    init(folder: URL) throws(RecordingError) {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: folder.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The file name `exchange` is written under.
    static func fileName(for exchange: RecordedExchange) -> String? {
        let names = MockDataNaming.baseNames(for: exchange.request)
        return names.first.map { $0 + ".http" }
    }

    /// The file's text: a status line, the headers with the body's true `Content-Length`, a blank line, the body.
    static func contents(of exchange: RecordedExchange) -> [UInt8] {
        var head = "HTTP/1.1 \(exchange.status) \(exchange.reason)\r\n"
        for field in exchange.headers { head += "\(field.name): \(field.value)\r\n" }
        if !(100..<200).contains(exchange.status) && exchange.status != 204 && exchange.status != 304 && exchange.request.method != "HEAD" {
            head += "Content-Length: \(exchange.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + exchange.body
    }

    func record(_ exchange: RecordedExchange) throws(RecordingError) {
        guard let name = Self.fileName(for: exchange) else {
            throw .cannotWrite(path: folder.path, reason: "\(exchange.request.method) \(exchange.request.target) has no file name shorter than 255 bytes")
        }
        let url = folder.appendingPathComponent(name)
        do {
            try Data(Self.contents(of: exchange)).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: (error as NSError).localizedDescription)
        }
        _ = written.withLock { $0.insert(url.path) }
    }

    func flush() throws(RecordingError) {}

    var writtenFiles: [String] { written.withLock { $0.sorted() } }
}
