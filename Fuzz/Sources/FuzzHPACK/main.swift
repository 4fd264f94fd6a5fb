// libFuzzer target: a peer's header blocks, through the HPACK decoder.
//
// The first byte picks the limits: bits 0-1 the dynamic table size limit (0, 64, 256 or 4096), bits
// 2-3 the header list limit (64, 512, 4096 or 65536); the second byte where the rest is cut into two
// blocks read by one decoder. Properties checked:
// - no crash, whatever the bytes, and the table never larger than the limit;
// - a list decoded, encoded again, decodes to the same list (sensitive fields included) in a fresh
//   decoder, and within the same header list limit.
import MockServerHTTP2
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

func fuzzHPACK(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 1 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let tableLimit = [0, 64, 256, 4096][Int(input[0] & 3)]
    let listLimit = [64, 512, 4096, 65536][Int(input[0] >> 2 & 3)]
    let bytes = Array(input[2...])
    let cut = min(Int(input[1]), bytes.count)
    var decoder = HPACKDecoder(maximumTableSizeLimit: tableLimit, maximumHeaderListSize: listLimit)
    for block in [Array(bytes[..<cut]), Array(bytes[cut...])] {
        let headers: [HPACKHeader]
        do {
            headers = try decoder.decode(block)
        } catch {
            precondition(decoder.table.size <= tableLimit, "the table holds \(decoder.table.size) bytes past its limit \(tableLimit)")
            return 0
        }
        precondition(decoder.table.size <= tableLimit, "the table holds \(decoder.table.size) bytes past its limit \(tableLimit)")
        precondition(headers.reduce(0) { $0 + $1.size } <= listLimit, "a header list past its limit \(listLimit)")
        var encoder = HPACKEncoder()
        var encoded: [UInt8] = []
        encoder.encode(headers, into: &encoded)
        var fresh = HPACKDecoder(maximumHeaderListSize: listLimit)
        do {
            let again = try fresh.decode(encoded)
            precondition(again == headers, "a list does not round-trip: \(headers) vs \(again)")
        } catch {
            preconditionFailure("a list encoded does not decode: \(headers): \(error)")
        }
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzHPACK))
