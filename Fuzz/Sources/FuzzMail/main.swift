// libFuzzer target: the mail family's readers of a peer's bytes: SMTP's and POP3's sessions (their
// command readers, DATA and BDAT framing, SASL answers) and the MIME parser.
//
// The first byte picks the mode and how the rest is cut into reads: bits 0-1 choose SMTP, POP3 or
// MIME; the rest of the byte is the size of each read (1 to 64 bytes), so split lines and chunks are
// explored too. Properties checked:
// - no crash, whatever the bytes;
// - every SMTP reply is CRLF-terminated lines starting with a three-digit code from 2xx to 5xx;
// - every POP3 status line starts with +OK, -ERR or "+ " (a SASL challenge), and RETR's data ends with CRLF.CRLF;
// - neither session leaves more unconsumed input waiting than its longest line;
// - the store never holds more bytes than were sent;
// - the MIME parser returns, its part IDs are dotted numbers, and its raw bytes are the input.
import Foundation
import MockServerCore
import MockServerMail
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

func checkSMTP(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    precondition(text.hasSuffix("\r\n"), "an SMTP reply not ending in CRLF: \(text.debugDescription)")
    for line in text.split(separator: "\r\n") {
        let code = line.prefix(3)
        precondition(code.count == 3 && code.allSatisfy(\.isNumber) && ("2"..."5").contains(code.first!), "an SMTP reply line without a code: \(line.debugDescription)")
    }
}

/// Feeds `input` to a session in reads of `chunk` bytes, as a connection would, calling `read` while it consumes or acts.
func feed(_ input: ArraySlice<UInt8>, chunk: Int, limit: Int, read: (inout ArraySlice<UInt8>) -> Int) {
    var buffer: [UInt8] = []
    var offset = input.startIndex
    while offset < input.endIndex {
        let end = min(offset + chunk, input.endIndex)
        buffer.append(contentsOf: input[offset..<end])
        offset = end
        var rounds = 0
        while true {
            var slice = buffer[...]
            let actions = read(&slice)
            let consumed = buffer.count - slice.count
            buffer.removeFirst(consumed)
            rounds += 1
            precondition(rounds < 100_000, "a session that neither waits nor stops")
            if actions == 0 && consumed == 0 { break }
        }
        precondition(buffer.count <= limit, "\(buffer.count) bytes left unconsumed, past \(limit)")
    }
}

func runSMTP(_ input: ArraySlice<UInt8>, chunk: Int) {
    let store = MailStore()
    var session = SMTPSession(settings: SMTPSettings(maximumMessageSize: 4096, maximumRecipients: 8), store: store)
    func run(_ actions: [SMTPAction]) -> Int {
        for action in actions {
            if case .send(let bytes) = action { checkSMTP(bytes) }
            if case .startTLS = action { session.tlsStarted() }
        }
        return actions.count
    }
    _ = run(session.start())
    feed(input, chunk: chunk, limit: session.settings.authenticationLineLimit) { slice in
        return run(session.read(&slice))
    }
    var rest = ArraySlice<UInt8>()
    _ = run(session.inputEnded(&rest))
    precondition(store.byteCount <= input.count, "the store holds \(store.byteCount) bytes of \(input.count) sent")
}

func runPOP3(_ input: ArraySlice<UInt8>, chunk: Int) {
    let store = MailStore()
    for index in 0..<3 {
        let raw = "From: a@example.com\r\nTo: ann@example.com\r\nSubject: \(index)\r\n\r\n.dot\r\nline \(index)\n"
        store.deliver(Data(raw.utf8), envelope: MailEnvelope(sender: "a@example.com", recipients: ["ann@example.com"], origin: .seed(path: "fuzz")))
    }
    var session = POP3Session(settings: POP3Settings(), store: store, timestamp: "<1.2@fuzz>")
    func run(_ actions: [MailAction]) -> Int {
        for action in actions {
            if case .send(let bytes) = action, let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                let text = String(decoding: bytes.prefix(5), as: UTF8.self)
                precondition(text.hasPrefix("+OK") || text.hasPrefix("-ERR") || text.hasPrefix("+ "), "a POP3 status line: \(text.debugDescription)")
            }
            if case .startTLS = action { session.tlsStarted() }
        }
        return actions.count
    }
    _ = run(session.start())
    feed(input, chunk: chunk, limit: session.settings.authenticationLineLimit) { slice in run(session.read(&slice)) }
}

func runMIME(_ input: ArraySlice<UInt8>) {
    let data = Data(input)
    let message = MailMessage(data)
    _ = (message.subject, message.from, message.to, message.text, message.html, message.date)
    for attachment in message.attachments {
        precondition(attachment.partID.split(separator: ".").allSatisfy { Int($0) != nil }, "a part ID that is not dotted numbers: \(attachment.partID)")
        _ = attachment.data
    }
    precondition(message.raw == data, "the raw bytes are not the input")
}

func fuzzMail(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = Int(input[0] >> 2) + 1
    switch input[0] & 3 {
    case 0, 3: runSMTP(input[1...], chunk: chunk)
    case 1: runPOP3(input[1...], chunk: chunk)
    default: runMIME(input[1...])
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzMail))
