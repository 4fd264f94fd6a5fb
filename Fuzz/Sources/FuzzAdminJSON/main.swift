// libFuzzer target: the JSON bodies the admin (control) API reads from a peer, through the code that
// reads them: the JSON reader (strict, as for `PUT /conditions`, `POST /set` and every other body the
// API reads; lenient, as for `POST /endpoints`), the network conditions decoder (`PUT /conditions`)
// and the endpoints decoder (`POST /endpoints`).
//
// Properties checked:
// - no crash, whatever the bytes (nesting 100,000 deep, huge numbers, bad UTF-8);
// - a refusal points inside the body (line 1 or more, column 1 or more, no further than one line
//   past the last) and says why;
// - what the strict reader takes, the lenient one takes too, as the same value;
// - decoded conditions hold only values inside their documented ranges.
import Foundation
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerHTTPScript
import MockServerScript
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

func checkLocation(_ location: JSONNode.Location, message: String, in bytes: [UInt8]) {
    precondition(!message.isEmpty, "a refusal without a message")
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    precondition(location.line >= 1 && location.column >= 1 && location.line <= lines + 1,
                 "a refusal outside the body: \(location) in \(lines) lines: \(message)")
}

func checkConditions(_ conditions: NetworkConditions) {
    for direction in [conditions.toClient, conditions.toServer] {
        for duration in [direction.latency, direction.jitter, direction.sliceDelay] {
            precondition(duration >= .zero && duration <= .seconds(86400), "a time out of range: \(duration)")
        }
        for count in [direction.bytesPerSecond, direction.sliceSize, direction.dataLimit].compactMap({ $0 }) {
            precondition(count >= 1 && count <= Int(Int32.max), "a count out of range: \(count)")
        }
        precondition(direction.probability >= 0 && direction.probability <= 1, "a probability out of range: \(direction.probability)")
    }
    precondition(conditions.probability >= 0 && conditions.probability <= 1, "a probability out of range: \(conditions.probability)")
}

/// Whether two values are the same, where they are included.
func same(_ one: JSONNode, _ other: JSONNode) -> Bool {
    guard one.location == other.location, one.numberText == other.numberText else { return false }
    switch (one.kind, other.kind) {
    case (.object(let a), .object(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.keyLocation == $1.keyLocation && same($0.value, $1.value) }
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    case (.string(let a), .string(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.null, .null): return true
    default: return false
    }
}

func fuzzAdminJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // PUT /conditions.
    var strict: JSONNode?
    do {
        let value = try JSONReader.parse(bytes, options: .strict)
        strict = value
        do {
            checkConditions(try NetworkConditionsJSON.decode(value))
        } catch {
            checkLocation(error.location, message: error.message, in: bytes)
        }
    } catch {
        checkLocation(error.location, message: error.message, in: bytes)
    }
    // Response and endpoints files, and POST /endpoints.
    do {
        let lenient = try JSONReader.parse(bytes, options: .lenient)
        if let strict { precondition(same(strict, lenient), "the strict and lenient readers read the same text differently") }
    } catch {
        checkLocation(error.location, message: error.message, in: bytes)
        precondition(strict == nil || error.message.contains("duplicate key"), "the lenient reader refuses what the strict one takes: \(error)")
    }
    do {
        _ = try EndpointScript(json: bytes, file: "POST /endpoints", vocabulary: .standard)
    } catch {
        precondition(!error.message.isEmpty, "an endpoints refusal without a message: \(error.problem)")
        if let location = error.location { checkLocation(JSONNode.Location(line: location.line, column: location.column), message: error.message, in: bytes) }
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzAdminJSON))
