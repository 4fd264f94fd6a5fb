import Foundation
import MockServerMail
import Testing
import TestSupport

/// The cost of FETCH's pure part on 10,000 messages (the fixtures cycled): making the summaries,
/// and writing `FETCH (FLAGS ENVELOPE)` from them. Opt-in, for a release build:
/// `IMAP_FETCH_BENCHMARK=1 swift test -c release --filter IMAPFetchBenchmarkTests`.
///
/// Measured 2026-11-29 on the shared two-core machine, the sources built with `swiftc -O -wmo`
/// (as a release build compiles them), best of 5: 10,000 summaries in 300–460 ms (30–46 µs each,
/// of which the MIME parse is about 19), the FETCH lines from them in 6–9 ms once their bytes are in
/// cache (45 ms on a fresh output buffer); a summary holds about 5 KB (770 bytes rendered, the rest
/// its MIMETree, shared with a MailMessage when made by `init(message:)`).
/// Dovecot 2.3.19 answered the same `FETCH 1:* (FLAGS ENVELOPE)` over the same 10,000 messages in
/// 941 ms the first time and 310–430 ms after (its socket included).
@Suite("IMAP FETCH benchmark", .enabled(if: ProcessInfo.processInfo.environment["IMAP_FETCH_BENCHMARK"] != nil))
struct IMAPFetchBenchmarkTests {
    @Test("10,000 summaries, then FETCH (FLAGS ENVELOPE) from them")
    func summariesAndEnvelopes() throws {
        let root = Tools.repositoryRoot.appendingPathComponent("Tests/MockServerMailTests/Fixtures")
        var fixtures: [Data] = []
        for folder in ["corpus", "imap"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".eml") {
                fixtures.append(try Data(contentsOf: directory.appendingPathComponent(name)))
            }
        }
        let count = 10_000
        let messages = (0..<count).map { fixtures[$0 % fixtures.count] }
        let clock = ContinuousClock()
        var summaries: [IMAPMessageSummary] = []
        let making = clock.measure { summaries = messages.map { IMAPMessageSummary(raw: $0) } }
        var output = IMAPOutput(capacity: 4_000_000)
        let content = IMAPMessageContent()
        let rendering = clock.measure {
            for (index, summary) in summaries.enumerated() {
                output.text("* ")
                output.number(index + 1)
                output.text(" FETCH (FLAGS (\\Seen) ")
                _ = content.write(.envelope, raw: messages[index], summary: summary, to: &output)
                output.text(")")
                output.crlf()
            }
        }
        print("IMAP FETCH benchmark: \(count) summaries in \(making), FETCH (FLAGS ENVELOPE) for them in \(rendering), \(output.bytes.count) bytes")
        let envelopes = summaries.reduce(0) { $0 + $1.envelope.count }
        let framing = (1...count).reduce(0) { $0 + "* \($1) FETCH (FLAGS (\\Seen) ENVELOPE )\r\n".utf8.count }
        #expect(output.bytes.count == envelopes + framing)
    }
}
