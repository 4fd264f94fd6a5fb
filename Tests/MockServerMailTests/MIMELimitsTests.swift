import Foundation
import MockServerMail
import Testing
import TestSupport

/// The parser's bounds: nesting, part count and header length stop it (marking the message
/// truncated, the raw bytes kept), and the time it takes grows linearly with the message.
@Suite("MIME limits", .cpuBound)
struct MIMELimitsTests {
    /// A multipart nested `depth` deep, each level one part holding the next.
    static func nested(depth: Int) -> Data {
        var text = ""
        for level in 0..<depth { text += "Content-Type: multipart/mixed; boundary=b\(level)\r\n\r\n--b\(level)\r\n" }
        text += "Content-Type: text/plain\r\n\r\ndeepest\r\n"
        return Data(text.utf8)
    }

    @Test("the defaults are 32 levels, 1,000 parts and 64 KiB a header field")
    func defaults() {
        #expect(MIMELimits() == MIMELimits(maximumDepth: 32, maximumParts: 1_000, maximumHeaderLength: 65_536))
    }

    @Test("past the depth limit the parser stops descending and marks the message; within it, it does not")
    func depth() {
        let within = MailMessage(Self.nested(depth: 31))
        #expect(!within.isTruncated && within.text == "deepest")
        let past = MailMessage(Self.nested(depth: 40))
        #expect(past.isTruncated)
        #expect(past.text == nil)
        #expect(past.tree.parts.map(\.depth).max() == 32)
        #expect(past.attachments.map(\.contentType) == ["multipart/mixed"])
        #expect(past.raw == Self.nested(depth: 40))
    }

    @Test("a message nested 5,000 deep stops at the limit, and raw bytes are kept; 500 levels within raised limits cost no stack")
    func deepNesting() {
        let data = Self.nested(depth: 5_000)
        let message = MailMessage(data)
        #expect(message.isTruncated && message.tree.parts.count == 33)
        #expect(message.raw.count == data.count)
        // The parts are opened from a work list: a recursion 500 frames deep is what this would be otherwise.
        let unlimited = MailMessage(Self.nested(depth: 500), limits: MIMELimits(maximumDepth: 1_000))
        #expect(!unlimited.isTruncated)
        #expect(unlimited.text == "deepest" && unlimited.tree.parts.count == 501)
    }

    @Test("past the part limit the parts after it are not listed, and the message is marked")
    func partCount() {
        var text = "Content-Type: multipart/mixed; boundary=p\r\n\r\n"
        for index in 0..<20 { text += "--p\r\nContent-Type: application/octet-stream\r\n\r\n\(index)\r\n" }
        text += "--p--\r\n"
        let message = MailMessage(Data(text.utf8), limits: MIMELimits(maximumParts: 10))
        #expect(message.isTruncated && message.tree.parts.count == 10 && message.attachments.count == 9)
        #expect(!MailMessage(Data(text.utf8)).isTruncated)
    }

    @Test("a header field past the length limit is cut and marks the message; its other fields are read")
    func headerLength() {
        let text = "To: " + (0..<10_000).map { "user\($0)@example.com" }.joined(separator: ",\r\n ") + "\r\nSubject: after\r\n\r\nbody"
        let message = MailMessage(Data(text.utf8))
        #expect(message.isTruncated)
        #expect(message.subject == "after" && message.text == "body")
        #expect(message.to.count > 2_000 && message.to.count < 10_000)
    }

    /// How long `body` takes, in seconds.
    static func seconds(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    // Bounds generous enough for a debug build on a loaded two-core machine (each takes well under
    // a second alone), and far below what a quadratic scan needs (hours at these sizes).
    @Test("a 5 MB message of 10,000 small parts parses in linear time")
    func manyParts() {
        var text = "Content-Type: multipart/mixed; boundary=\"many\"\r\n\r\n"
        let filler = String(repeating: "x", count: 480)
        for index in 0..<10_000 {
            text += "--many\r\nContent-Type: text/plain; name=\"p\(index).txt\"\r\nContent-Disposition: attachment\r\n\r\n\(filler)\r\n"
        }
        text += "--many--\r\n"
        let data = Data(text.utf8)
        #expect(data.count > 5_000_000)
        var message: MailMessage?
        let elapsed = Self.seconds { message = MailMessage(data, limits: MIMELimits(maximumParts: 20_000)) }
        #expect(message?.attachments.count == 10_000 && message?.isTruncated == false)
        #expect(elapsed < 20, "10,000 parts took \(elapsed) s")
    }

    @Test("100,000 header lines parse in linear time")
    func manyHeaderLines() {
        var text = ""
        for index in 0..<50_000 { text += "X-Field-\(index % 100): value \(index)\r\n continued\r\n" }
        text += "Subject: last\r\n\r\nbody"
        var message: MailMessage?
        let elapsed = Self.seconds { message = MailMessage(Data(text.utf8)) }
        #expect(message?.subject == "last" && message?.headerNames.count == 50_001)
        #expect(elapsed < 20, "100,000 header lines took \(elapsed) s")
    }
}
