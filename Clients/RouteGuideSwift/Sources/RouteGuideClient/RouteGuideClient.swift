import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import Synchronization

/// The route_guide client in Swift (grpc-swift 2 over SwiftNIO's HTTP/2, swift-protobuf messages):
/// one fixed scenario across the four call kinds against `HOST:PORT`, printed as the canonical
/// transcript the Python and Go clients print too (Tests/GRPCClients/route_guide/README.md). Exits 1
/// after a line saying what failed.
///
/// RouteChat waits for the answers to each note before it sends the next, so a server that answers
/// only once the client has half-closed fails at the call's deadline, with a line that says so.
@main
struct RouteGuideClient {
    /// Each call's deadline: 10 s, or `ROUTE_GUIDE_DEADLINE`'s seconds.
    static let deadline: Duration = {
        guard let text = ProcessInfo.processInfo.environment["ROUTE_GUIDE_DEADLINE"], !text.isEmpty else { return .seconds(10) }
        guard let seconds = Double(text), seconds > 0 else { fail("ROUTE_GUIDE_DEADLINE takes seconds, not \"\(text)\"") }
        return .milliseconds(Int(seconds * 1000))
    }()

    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 1, let colon = arguments.first!.lastIndex(of: ":"),
              let port = Int(arguments.first![arguments.first!.index(after: colon)...]) else {
            fail("usage: RouteGuideClient HOST:PORT")
        }
        let host = String(arguments.first![..<colon])
        do {
            let transport = try HTTP2ClientTransport.Posix(target: .dns(host: host, port: port), transportSecurity: .plaintext)
            try await withGRPCClient(transport: transport) { client in
                try await run(Routeguide_RouteGuide.Client(wrapping: client))
            }
        } catch let error as RPCError {
            fail("FAILED: \(error.code): \(error.message)")
        } catch {
            fail("FAILED: \(error)")
        }
        print("done")
    }

    /// Writes `message` to standard error and exits 1.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }

    /// A point from its coordinates (degrees times 10^7).
    static func point(_ latitude: Int32, _ longitude: Int32) -> Routeguide_Point {
        var point = Routeguide_Point()
        point.latitude = latitude
        point.longitude = longitude
        return point
    }

    static func show(_ point: Routeguide_Point) -> String { "(\(point.latitude), \(point.longitude))" }

    static func show(_ feature: Routeguide_Feature) -> String { "\"\(feature.name)\" at \(show(feature.location))" }

    static func note(_ location: Routeguide_Point, _ message: String) -> Routeguide_RouteNote {
        var note = Routeguide_RouteNote()
        note.location = location
        note.message = message
        return note
    }

    /// The scenario, each line printed as it happens.
    static func run(_ guide: Routeguide_RouteGuide.Client<HTTP2ClientTransport.Posix>) async throws {
        var options = CallOptions.defaults
        options.timeout = deadline

        for point in [point(387245574, -92250054), point(387000000, -91000000)] {
            let feature = try await guide.getFeature(point, options: options)
            print("GetFeature \(show(point)): \(show(feature))")
        }

        var rectangle = Routeguide_Rectangle()
        rectangle.lo = point(387200000, -91800000)
        rectangle.hi = point(388000000, -91200000)
        print("ListFeatures \(show(rectangle.lo))-\(show(rectangle.hi)):")
        let count = try await guide.listFeatures(rectangle, options: options) { response in
            var count = 0
            for try await feature in response.messages {
                print("  " + show(feature))
                count += 1
            }
            return count
        }
        print("ListFeatures: \(count) features")

        let route = [point(386500000, -92500000), point(386846231, -92125351), point(386900000, -92000000),
                     point(387245574, -92250054), point(387991148, -92000108)]
        let summary = try await guide.recordRoute(options: options) { writer in
            try await writer.write(contentsOf: route)
        }
        let elapsed = (0..<10).contains(summary.elapsedTime) ? "under 10 s" : "= \(summary.elapsedTime) s"
        print("RecordRoute \(route.count) points: point_count=\(summary.pointCount) feature_count=\(summary.featureCount) distance=\(summary.distance) elapsed_time \(elapsed)")

        try await chat(guide, options: options)
    }

    /// RouteChat: each note with the number of answers the example's server sends to it as it
    /// arrives; the next note goes only once those have come. The response handler passes each
    /// answer to the request producer through `answers`, so that every line is printed by one task,
    /// in the order it happened.
    static func chat(_ guide: Routeguide_RouteGuide.Client<HTTP2ClientTransport.Posix>, options: CallOptions) async throws {
        let a = point(386900000, -92000000), b = point(387100000, -91100000)
        let notes = [(note(a, "first at A"), 0), (note(a, "second at A"), 1), (note(b, "first at B"), 0),
                     (note(a, "third at A"), 2), (note(b, "second at B"), 1)]
        let (answers, answered) = AsyncThrowingStream.makeStream(of: Routeguide_RouteNote.self)
        let waitingFor = Mutex(0)
        let received = Mutex(0)
        do {
            try await guide.routeChat(options: options) { writer in
                var incoming = answers.makeAsyncIterator()
                for (number, (note, expected)) in notes.enumerated() {
                    print("RouteChat sent \"\(note.message)\" at \(show(note.location))")
                    try await writer.write(note)
                    waitingFor.withLock { $0 = number + 1 }
                    for _ in 0..<expected {
                        guard let answer = try await incoming.next() else { return }
                        print("RouteChat got \"\(answer.message)\" at \(show(answer.location))")
                        received.withLock { $0 += 1 }
                    }
                    waitingFor.withLock { $0 = 0 }
                }
            } onResponse: { response in
                do {
                    for try await answer in response.messages { answered.yield(answer) }
                    answered.finish()
                } catch {
                    answered.finish(throwing: error)
                    throw error
                }
            }
        } catch let error as RPCError where error.code == .deadlineExceeded && waitingFor.withLock({ $0 }) > 0 {
            fail("FAILED: RouteChat: no answer to note \(waitingFor.withLock { $0 }) within \(deadline): the server does not answer each note as it arrives (it may wait for the client's half-close)")
        }
        for try await answer in answers {
            print("RouteChat got \"\(answer.message)\" at \(show(answer.location))")
            received.withLock { $0 += 1 }
        }
        print("RouteChat closed: \(received.withLock { $0 }) notes")
    }
}
