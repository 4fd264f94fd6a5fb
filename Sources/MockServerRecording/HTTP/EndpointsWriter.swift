import Foundation
@_spi(HotPath) import MockServerCore
import MockServerHTTP
import MockServerHTTPScript

/// Keeps the exchanges as endpoints and writes them to an endpoints file (the stub-script format of
/// `Docs/ResponseFormat.md`), after the endpoints the file already had.
///
/// A request (method, path and query, and a text body) becomes one endpoint; when it was answered
/// differently at different times, its answers become a `responses` sequence in the order they
/// came, an answer the same as the one just before it (`Date` and `Age` aside) kept once (the last
/// repeats on replay);
/// when every answer was the same, a single `response`. The
/// file is rewritten at most every ``writeInterval`` while recording (less often as it grows: see
/// ``pause(after:)``), and by ``flush()``.
final class EndpointsWriter: RecordingSink {
    let file: URL
    let keepsTiming: Bool
    /// The loaded `.proto` schemas: a gRPC call of a method they have is written with JSON
    /// messages (``GRPCRecordedCall``); without one, or for another method, as bytes.
    let grpcSchema: GRPCSchema?
    /// The recording's mask: its JSON names mask the fields of gRPC messages read by the schema
    /// (JSON bodies come masked already).
    let mask: HTTPRequestMask
    /// The endpoints the file had, as written there.
    private let kept: [String]
    private struct Endpoint {
        var json: String
        var responses: [String]
        /// The last answer, to tell a changed answer from a repeated one (its delay aside).
        var lastAnswer: Answer?

        /// The endpoint as the file has it.
        static func text(json: String, responses: [String]) -> String {
            let answer = responses.count == 1 ? "\"response\": \(responses[0])"
                : "\"responses\": [\n        " + responses.joined(separator: ",\n        ") + "\n      ]"
            return "{ \(json), \(answer) }"
        }
    }

    /// Whether `field` tells answers apart: all but those that change with the clock (`Date`, `Age`).
    private static func isComparable(_ field: HTTPHeaderFields.Field) -> Bool {
        !clockFields.contains(field.name)
    }

    private static let clockFields = HTTPFieldNames(["date", "age"])

    private struct Answer: Equatable {
        var status: Int
        /// The headers that tell answers apart (``isComparable(_:)``).
        var headers: HTTPHeaderFields
        var body: [UInt8]
        var trailers = HTTPHeaderFields()

        init(_ exchange: RecordedExchange) {
            status = exchange.status
            headers = HTTPHeaderFields(exchange.headers.fields.filter(EndpointsWriter.isComparable))
            body = exchange.body
            trailers = exchange.trailers
        }

        /// Whether `exchange` answered the same, with no copy of its headers made to compare.
        func isSame(as exchange: RecordedExchange) -> Bool {
            guard status == exchange.status, body == exchange.body, trailers == exchange.trailers else { return false }
            // The next kept field is compared first: a field equal to it cannot be a clock field
            // (none is kept), so the names are looked up only for the one that differs (`Date`).
            // By index over both arrays: no optional field copied out of an iterator per field.
            let kept = headers.fields
            var next = 0
            for field in exchange.headers.fields {
                if next < kept.count, kept[next] == field {
                    next += 1
                } else if EndpointsWriter.isComparable(field) {
                    return false
                }
            }
            return next == kept.count
        }
    }
    /// A request as it was sent, by its bytes: the method, the target and the body that
    /// ``endpointKey(_:)`` makes a key of. A request sent again, as a benchmark or a test suite
    /// does, finds its endpoint by hashing and comparing these bytes, with no key `String` made.
    /// Equal bytes make an equal key, so an entry is only ever a shortcut to the endpoint its key
    /// names; spellings of one endpoint that differ (an absolute URL, a bare trailing `?`, a body
    /// in another Unicode form) each have their own entry, made the first time through the key.
    private struct SentRequest: Hashable {
        let method: String
        let target: String
        let body: [UInt8]

        func hash(into hasher: inout Hasher) {
            Self.combine(method, into: &hasher)
            Self.combine(target, into: &hasher)
            hasher.combine(body.count)
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (a: SentRequest, b: SentRequest) -> Bool {
            sameBytes(a.method, b.method) && sameBytes(a.target, b.target) && a.body == b.body
        }

        /// Feeds `text`'s UTF-8 bytes and their count to `hasher`.
        private static func combine(_ text: String, into hasher: inout Hasher) {
            hasher.combine(text.utf8.count)
            if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                for byte in text.utf8 { hasher.combine(byte) }
            }
        }

        /// Whether `a` and `b` have the same UTF-8 bytes (not `String`'s `==`, which also takes
        /// other Unicode forms of a text as equal: the hash is of the bytes).
        private static func sameBytes(_ a: String, _ b: String) -> Bool {
            guard a.utf8.count == b.utf8.count else { return false }
            let same = a.utf8.withContiguousStorageIfAvailable { a in
                b.utf8.withContiguousStorageIfAvailable { b in a.elementsEqual(b) }
            }
            return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
        }
    }

    private struct State {
        /// The endpoints in the order they were first recorded: an endpoint's index is its place
        /// here and in ``rendered``.
        var endpoints: [Endpoint] = []
        /// Each endpoint's index by its key (``endpointKey(_:)``).
        var indexes: [String: Int] = [:]
        /// Each endpoint's index by the bytes of the requests recorded for it.
        var sent: [SentRequest: Int] = [:]
        /// The request found or recorded last and its endpoint's index: one sent again straight
        /// after (a benchmark's, a polling client's) is found by one comparison, without hashing.
        var last: (request: SentRequest, index: Int)?
        /// Each endpoint's text as last written, in the order they were first recorded: a write
        /// makes only the text of those that changed since the one before (``changed``) and joins.
        var rendered: [String] = []
        /// The endpoints (by index) that changed since the last write.
        var changed: Set<Int> = []
        var dirty = false
        var writeScheduled = false
        /// How long after a change the file is written: ``writeInterval``, or longer once a write
        /// takes long (``pause(after:)``).
        var interval = EndpointsWriter.writeInterval
    }
    /// Read and changed for every exchange recorded.
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "mockserver.record.endpoints")
    static let writeInterval = DispatchTimeInterval.milliseconds(200)

    /// The wait before the next write after one that took `duration`: ``writeInterval``, or ten
    /// times the last write's time when that is longer. A file is rewritten whole, so the cost of
    /// each write grows with what was recorded; this keeps the writer's share of a core near a tenth
    /// however large the file grows (50,000 endpoints, 10 MB, were rewritten 5 times a second).
    static func pause(after duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = (duration * 10).components
        let milliseconds = Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return .milliseconds(max(200, milliseconds))
    }

    init(file: URL, keepsTiming: Bool, grpcSchema: GRPCSchema? = nil, mask: HTTPRequestMask = HTTPRequestMask()) throws(RecordingError) {
        self.file = file
        self.keepsTiming = keepsTiming
        self.grpcSchema = grpcSchema
        self.mask = mask
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

    /// The endpoint's key for `exchange` (method, path and text body), with the path and body it
    /// was made of; `nil` when the format cannot say it.
    static func endpointKey(_ exchange: RecordedExchange) -> (key: String, target: String, body: String?)? {
        let request = exchange.request
        switch request.method {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS": break
        default: return nil
        }
        var target = String(AbsoluteURI.pathOnward(of: Substring(request.target)))
        if target.utf8.contains(UInt8(ascii: " ")) { return nil }
        if target.utf8.last == UInt8(ascii: "?") { target.removeLast() }
        var key = request.method + " " + target
        guard !exchange.requestBody.isEmpty else { return (key, target, nil) }
        guard let text = String(exactUTF8: exchange.requestBody), !text.contains("${") else { return nil }
        key += "\n" + text
        return (key, target, text)
    }

    /// The endpoint's `api` (and `request`) members for `method`, `target` and a text `body`:
    /// made only for an endpoint's first answer.
    static func endpointJSON(method: String, target: String, body: String?) -> String {
        var json = "\"api\": " + "\(method.lowercased()) \(target)".escaped(.json)
        if let body { json += ", \"request\": { \"body\": \(body.escaped(.json)) }" }
        return json
    }

    /// The response object for `exchange`.
    func responseJSON(_ exchange: RecordedExchange, timing: Bool) -> String {
        var parts = ["\"status\": \(exchange.status)"]
        if let headers = Self.fieldsJSON(exchange.headers.fields) { parts.append("\"headers\": " + headers) }
        if !exchange.body.isEmpty {
            if let text = String(exactUTF8: exchange.body), !text.contains("${") {
                parts.append("\"body\": \(text.escaped(.json))")
            } else {
                parts.append("\"body\": { \"base64\": \"\(Data(exchange.body).base64EncodedString())\" }")
            }
        }
        if let trailers = Self.fieldsJSON(exchange.trailers.fields) { parts.append("\"trailers\": " + trailers) }
        if timing { parts.append(Self.delayJSON(exchange)) }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// The response object of a gRPC `call` read by the schema: its metadata, the `"grpc"` answer
    /// and the trailers left, and `exchange`'s time to answer when `timing`.
    func responseJSON(_ call: GRPCRecordedCall, _ exchange: RecordedExchange, timing: Bool) -> String {
        var parts: [String] = []
        if let headers = Self.fieldsJSON(call.headers) { parts.append("\"headers\": " + headers) }
        parts.append("\"grpc\": " + call.grpcJSON)
        if let trailers = Self.fieldsJSON(call.trailers) { parts.append("\"trailers\": " + trailers) }
        if timing { parts.append(Self.delayJSON(exchange)) }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// `fields` as a JSON object, those with `${` in a name or value left out (a replay would take
    /// them for templates); `nil` when none is left.
    private static func fieldsJSON(_ fields: [HTTPHeaderFields.Field]) -> String? {
        let written = fields.filter { !$0.value.contains("${") && !$0.name.contains("${") }
        guard !written.isEmpty else { return nil }
        return "{ " + written.map { "\($0.name.escaped(.json)): \($0.value.escaped(.json))" }.joined(separator: ", ") + " }"
    }

    /// The `"delay"` member: the upstream's time to answer `exchange`, in seconds.
    private static func delayJSON(_ exchange: RecordedExchange) -> String {
        let (seconds, attoseconds) = exchange.elapsed.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return "\"delay\": \(Double(milliseconds) / 1000)"
    }

    func record(_ exchange: RecordedExchange) throws(RecordingError) {
        // A request sent before finds its endpoint by its bytes. An answer the same as the one
        // before it is kept once (a sequence holds the changes): the raw answer is compared first,
        // and the key and the JSON made only for a change or a request not seen in these bytes.
        let sent = SentRequest(method: exchange.request.method, target: exchange.request.target, body: exchange.requestBody)
        let unchanged = state.withLock { state in
            let index: Int
            if let last = state.last, last.request == sent {
                index = last.index
            } else if let known = state.sent[sent] {
                index = known
                state.last = (sent, known)
            } else {
                return false
            }
            return state.endpoints[index].lastAnswer?.isSame(as: exchange) ?? false
        }
        if unchanged { return }
        let key: String
        let response: String
        let endpointJSON: () -> String
        if let schema = grpcSchema, let call = GRPCRecordedCall(exchange, schema: schema, mask: mask) {
            key = call.key
            response = responseJSON(call, exchange, timing: keepsTiming)
            endpointJSON = { call.endpointJSON }
        } else {
            guard let (httpKey, target, requestBody) = Self.endpointKey(exchange) else {
                throw .cannotWrite(path: file.path, reason: "\(exchange.request.method) \(exchange.request.target) cannot be an endpoint "
                    + "(endpoints take GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS with a text body); record it with --mock-data")
            }
            key = httpKey
            response = responseJSON(exchange, timing: keepsTiming)
            endpointJSON = { Self.endpointJSON(method: exchange.request.method, target: target, body: requestBody) }
        }
        let answer = Answer(exchange)
        let schedule = state.withLock { state -> DispatchTimeInterval? in
            let index: Int
            if let known = state.indexes[key] {
                index = known
            } else {
                index = state.endpoints.count
                state.endpoints.append(Endpoint(json: endpointJSON(), responses: []))
                state.rendered.append("")
                state.indexes[key] = index
            }
            state.sent[sent] = index
            state.last = (sent, index)
            guard state.endpoints[index].lastAnswer != answer else { return nil }
            // In place: a sequence of many answers is not copied at each one.
            state.endpoints[index].lastAnswer = answer
            state.endpoints[index].responses.append(response)
            state.changed.insert(index)
            state.dirty = true
            defer { state.writeScheduled = true }
            return state.writeScheduled ? nil : state.interval
        }
        if let schedule {
            queue.asyncAfter(deadline: .now() + schedule) { [self] in
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

    /// Writes the file if anything changed since it was last written; on the writer's queue. The
    /// text is made outside the lock, so recording goes on meanwhile.
    private func write() throws(RecordingError) {
        let started = ContinuousClock.now
        let changed: [(index: Int, json: String, responses: [String])]? = state.withLock { state in
            state.writeScheduled = false
            guard state.dirty else { return nil }
            state.dirty = false
            defer { state.changed.removeAll(keepingCapacity: true) }
            return state.changed.map { index in (index: index, json: state.endpoints[index].json, responses: state.endpoints[index].responses) }
        }
        guard let changed else { return }
        let texts = changed.map { (index: $0.index, text: Endpoint.text(json: $0.json, responses: $0.responses)) }
        let rendered = state.withLock { state in
            for (index, text) in texts { state.rendered[index] = text }
            return state.rendered
        }
        defer {
            let interval = Self.pause(after: ContinuousClock.now - started)
            state.withLock { $0.interval = interval }
        }
        do {
            try Data(Self.text(kept: kept, recorded: rendered).utf8).write(to: file, options: .atomic)
        } catch {
            throw .cannotWrite(path: file.path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func text(kept: [String], recorded: [String]) -> String {
        "{\n  \"comment\": \"Recorded by mockserver record; endpoints recorded later come after those already here.\",\n  \"endpoints\": [\n    "
            + (kept + recorded).joined(separator: ",\n    ") + "\n  ]\n}\n"
    }

    var writtenFiles: [String] { state.withLock { $0.rendered.isEmpty } ? [] : [file.path] }
}
