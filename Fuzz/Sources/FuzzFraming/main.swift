// libFuzzer target: the line, HTTP-request and raw framers.
//
// The first byte picks the framer and how the rest is cut into reads. Properties checked:
// - no crash, whatever the bytes;
// - the units and the error (by kind) are the same whether the bytes come in one read or in many;
// - a unit fed alone to a fresh framer comes back as one unit, unchanged (requests) or as the same
//   line (lines, once its terminator is put back).
import MockServerCore
import MockServerHTTP
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The HTTP parser seen as a framer of byte units: each request as it was sent.
struct RequestUnits: InputFramer {
    var parser: HTTPRequestParser
    mutating func append(_ bytes: UnsafeRawBufferPointer) { parser.append(bytes) }
    mutating func next() throws(FramingError) -> [UInt8]? { try parser.next()?.raw }
    mutating func finish() throws(FramingError) -> [UInt8]? { try parser.finish()?.raw }
    var bufferedCount: Int { parser.bufferedCount }
}

/// What a framer made of a byte stream: its units, then the kind of error that stopped it, if any.
struct Outcome: Equatable {
    var units: [[UInt8]] = []
    var error: String?
}

/// The error's case name, without its message (where a framer notices a problem may differ with
/// the reads, but not what the problem is).
func kind(_ error: FramingError) -> String {
    switch error {
    case .lineTooLong: "lineTooLong"
    case .tooLong(let part, _): "tooLong(\(part))"
    case .malformed(let unit, _): "malformed(\(unit))"
    }
}

func run(_ makeFramer: () -> any InputFramer, _ bytes: ArraySlice<UInt8>, cuts: [Int]) -> Outcome {
    var framer = makeFramer()
    var outcome = Outcome()
    var offset = bytes.startIndex
    var cut = 0
    do {
        while offset < bytes.endIndex {
            let size = max(1, cuts.isEmpty ? bytes.count : cuts[cut % cuts.count])
            cut += 1
            let end = min(offset + size, bytes.endIndex)
            Array(bytes[offset..<end]).withUnsafeBytes { framer.append($0) }
            offset = end
            while let unit = try framer.next() { outcome.units.append(unit) }
            if var units = framer as? RequestUnits {
                // The server asks for a waiting head between reads; that must not change the units.
                _ = units.parser.takeHeadAwaitingContinue()
                framer = units
            }
        }
        while let unit = try framer.finish() { outcome.units.append(unit) }
    } catch {
        outcome.error = kind(error)
    }
    return outcome
}

func fuzzFraming(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = input[0]
    let bytes = input[1...]
    let makeFramer: () -> any InputFramer
    switch selector % 3 {
    case 0: makeFramer = { LineFramer(maximumLength: 64) }
    case 1: makeFramer = { RequestUnits(parser: HTTPRequestParser(maximumHeadLength: 256, maximumBodyLength: 1024)) }
    default: makeFramer = { RawFramer() }
    }
    // Read sizes from the selector's upper bits and the data itself, so libFuzzer explores them too.
    let cuts = [Int(selector >> 2) + 1] + bytes.prefix(8).map { Int($0 % 17) + 1 }
    let whole = run(makeFramer, bytes, cuts: [])
    let split = run(makeFramer, bytes, cuts: cuts)
    if selector % 3 != 2 {
        // Raw units are reads by definition, so only lines and requests must not depend on them.
        precondition(whole == split, "framing depends on how the bytes were read: \(whole) vs \(split)")
    }
    if selector % 3 == 1 {
        for unit in whole.units {
            let again = run(makeFramer, unit[...], cuts: [])
            precondition(again.units == [unit] && again.error == nil, "a request does not frame back to itself: \(unit)")
        }
    }
    if selector % 3 == 0 {
        for unit in whole.units where !unit.contains(0x0A) {
            let again = run(makeFramer, (unit + [0x0A])[...], cuts: [])
            precondition(again.units == [unit] || (unit.last == 0x0D && again.units == [Array(unit.dropLast())]),
                         "a line does not frame back to itself: \(unit)")
        }
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzFraming))
