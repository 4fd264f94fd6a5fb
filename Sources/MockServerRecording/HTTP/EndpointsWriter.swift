import Foundation
import MockServerCore
import MockServerHTTP

/// Keeps the exchanges as endpoints and writes them to an endpoints file (the stub-script format of
/// `Docs/ResponseFormat.md`), after the endpoints the file already had.
///
/// A request (method, path and query, and a text body) becomes one endpoint; when it was answered
/// differently at different times, its answers become a `responses` sequence in the order they
/// came, an answer the same as the one just before it (`Date` and `Age` aside) kept once (the last
/// repeats on replay);
/// when every answer was the same, a single `response`. The
/// file is rewritten at most every ``writeInterval`` while recording, and by ``flush()``.
final class EndpointsWriter: RecordingSink {
    let file: URL
    let keepsTiming: Bool
    /// The endpoints the file had, as written there.
    private let kept: [String]
    private struct Endpoint {
        var json: String
        var responses: [String]
        /// The last answer, to tell a changed answer from a repeated one (its delay aside).
        var lastAnswer: Answer?
    }

    /// The headers that tell answers apart: all but those that change with the clock (`Date`, `Age`).
    private static func comparable(_ headers: HTTPHeaders) -> HTTPHeaders {
        var result = HTTPHeaders()
        for field in headers where !["date", "age"].contains(field.name.lowercased()) { result.add(name: field.name, value: field.value) }
        return result
    }

    private struct Answer: Equatable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        var trailers = HTTPHeaders()
    }
    private struct State {
        var order: [String] = []
        var endpoints: [String: Endpoint] = [:]
        var dirty = false
        var writeScheduled = false
    }
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "mockserver.record.endpoints")
    static let writeInterval = DispatchTimeInterval.milliseconds(200)

    init(file: URL, keepsTiming: Bool) throws(RecordingError) {
        self.file = file
        self.keepsTiming = keepsTiming
        var kept: [String] = []
        if FileManager.default.fileExists(atPath: file.path) {
            let bytes: [UInt8]
            do {
                bytes = Array(try Data(contentsOf: file))
            } catch {
                throw .unreadable(path: file.path, reason: (error as NSError).localizedDescription)
            }
            do {
                let root = try JSONReader.parse(bytes)
                guard case .object(let members) = root.kind, let list = members.first(where: { $0.key == "endpoints" }),
                      case .array(let items) = list.value.kind else {
                    throw RecordingError.unreadable(path: file.path, reason: "not an endpoints file (no top-level \"endpoints\" array)")
                }
                kept = items.map { JSONText.write($0) }
            } catch let error as RecordingError {
                throw error
            } catch {
                throw .unreadable(path: file.path, reason: "\(error)")
            }
        }
        self.kept = kept
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: file.deletingLastPathComponent().path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The endpoint's method, path and request for `exchange`, or `nil` when the format cannot say it.
    static func endpointKey(_ exchange: RecordedExchange) -> (key: String, json: String)? {
        let request = exchange.request
        let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        guard methods.contains(request.method) else { return nil }
        var target = String(AbsoluteURI.pathOnward(of: Substring(request.target)))
        if target.utf8.contains(UInt8(ascii: " ")) { return nil }
        if target.hasSuffix("?") { target.removeLast() }
        var json = "\"api\": " + "\(request.method.lowercased()) \(target)".escaped(.json)
        var key = request.method + " " + target
        if !exchange.requestBody.isEmpty {
            guard let text = String(exactUTF8: exchange.requestBody), !text.contains("${") else { return nil }
            json += ", \"request\": { \"body\": \(text.escaped(.json)) }"
            key += "\n" + text
        }
        return (key, json)
    }

    /// The response object for `exchange`.
    func responseJSON(_ exchange: RecordedExchange, timing: Bool) -> String {
        var parts = ["\"status\": \(exchange.status)"]
        let headers = exchange.headers.filter { !$0.value.contains("${") && !$0.name.contains("${") }
        if !headers.isEmpty {
            parts.append("\"headers\": { " + headers.map { "\($0.name.escaped(.json)): \($0.value.escaped(.json))" }.joined(separator: ", ") + " }")
        }
        if !exchange.body.isEmpty {
            if let text = String(exactUTF8: exchange.body), !text.contains("${") {
                parts.append("\"body\": \(text.escaped(.json))")
            } else {
                parts.append("\"body\": { \"base64\": \"\(Data(exchange.body).base64EncodedString())\" }")
            }
        }
        let trailers = exchange.trailers.filter { !$0.value.contains("${") && !$0.name.contains("${") }
        if !trailers.isEmpty {
            parts.append("\"trailers\": { " + trailers.map { "\($0.name.escaped(.json)): \($0.value.escaped(.json))" }.joined(separator: ", ") + " }")
        }
        if timing {
            let (seconds, attoseconds) = exchange.elapsed.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            parts.append("\"delay\": \(Double(milliseconds) / 1000)")
        }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    func record(_ exchange: RecordedExchange) throws(RecordingError) {
        guard let (key, json) = Self.endpointKey(exchange) else {
            throw .cannotWrite(path: file.path, reason: "\(exchange.request.method) \(exchange.request.target) cannot be an endpoint "
                + "(endpoints take GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS with a text body); record it with --mock-data")
        }
        // An answer the same as the one before it is kept once (a sequence holds the changes): the
        // raw answer is compared first, and JSON written only for a change.
        let answer = Answer(status: exchange.status, headers: Self.comparable(exchange.headers), body: exchange.body, trailers: exchange.trailers)
        let unchanged = state.withLock { $0.endpoints[key]?.lastAnswer == answer }
        if unchanged { return }
        let response = responseJSON(exchange, timing: keepsTiming)
        let schedule = state.withLock { state -> Bool in
            if state.endpoints[key] == nil {
                state.order.append(key)
                state.endpoints[key] = Endpoint(json: json, responses: [])
            }
            guard state.endpoints[key]?.lastAnswer != answer else { return false }
            state.endpoints[key]?.lastAnswer = answer
            state.endpoints[key]?.responses.append(response)
            state.dirty = true
            defer { state.writeScheduled = true }
            return !state.writeScheduled
        }
        if schedule {
            queue.asyncAfter(deadline: .now() + Self.writeInterval) { [self] in
                try? write()
            }
        }
    }

    func flush() throws(RecordingError) {
        let result: Result<Void, RecordingError> = queue.sync {
            do throws(RecordingError) {
                try write()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Writes the file if anything changed since it was last written.
    private func write() throws(RecordingError) {
        let text: String? = state.withLock { state in
            state.writeScheduled = false
            guard state.dirty else { return nil }
            state.dirty = false
            return Self.text(kept: kept, recorded: state.order.compactMap { state.endpoints[$0] }.map { endpoint in
                let answer = endpoint.responses.count == 1 ? "\"response\": \(endpoint.responses[0])"
                    : "\"responses\": [\n        " + endpoint.responses.joined(separator: ",\n        ") + "\n      ]"
                return "{ \(endpoint.json), \(answer) }"
            })
        }
        guard let text else { return }
        do {
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw .cannotWrite(path: file.path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func text(kept: [String], recorded: [String]) -> String {
        "{\n  \"comment\": \"Recorded by mockserver record; endpoints recorded later come after those already here.\",\n  \"endpoints\": [\n    "
            + (kept + recorded).joined(separator: ",\n    ") + "\n  ]\n}\n"
    }

    var writtenFiles: [String] { state.withLock { $0.order.isEmpty } ? [] : [file.path] }
}
