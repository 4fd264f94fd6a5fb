// SEARCH TEXT's matcher over a Maildir, in process: compiled with MockServerMail's pure sources by
// Benchmarks/imap-search.sh (which runs Dovecot on the same Maildir beside it). Not a test.
//   bench generate DIR COUNT        writes COUNT messages of 2–10 KB into the Maildir DIR (cur/)
//   bench search DIR WORD ROUNDS    SEARCH TEXT WORD over DIR's messages: prints matches and times
import Foundation

/// A deterministic generator (SplitMix64), so that both servers search the same mail every run.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

let words = ["meeting", "report", "invoice", "project", "schedule", "budget", "review", "release", "customer", "server",
             "deploy", "weekly", "update", "question", "answer", "thanks", "regards", "attached", "please", "tomorrow",
             "Grüße", "café", "naïve", "déjà", "résumé", "über", "straße", "quarter", "numbers", "agenda"]

/// `length` bytes or so of prose, lines of about 70 characters; `zebra` once in it when `marked`.
func prose(_ random: inout Random, length: Int, marked: Bool) -> String {
    var text = "", line = ""
    var count = 0
    // Words average about 7 bytes with their space: the mark falls somewhere in the text.
    let mark = marked ? random.below(max(1, length / 8)) : -1
    while text.utf8.count + line.utf8.count < length || count <= mark {
        line += (line.isEmpty ? "" : " ") + (count == mark ? "zebra" : words[random.below(words.count)])
        count += 1
        if line.utf8.count > 70 {
            text += line + "\r\n"
            line = ""
        }
    }
    return text + line + "\r\n"
}

/// Quoted-printable of `text`'s UTF-8, lines of at most 76.
func quotedPrintable(_ text: String) -> String {
    var out = "", column = 0
    for byte in text.utf8 {
        if byte == 0x0D { continue }
        if byte == 0x0A { out += "\r\n"; column = 0; continue }
        let piece = (byte >= 0x21 && byte <= 0x7E && byte != 0x3D) || byte == 0x20 ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
        if column + piece.count > 75 { out += "=\r\n"; column = 0 }
        out += piece
        column += piece.count
    }
    return out
}

/// base64 of `bytes`, lines of 76.
func base64(_ bytes: Data) -> String {
    bytes.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]) + "\r\n"
}

/// Message `index`: its header (a few Received lines, a folded To, an encoded Subject one time in
/// five) and a body of one of five shapes.
func message(_ index: Int, _ random: inout Random) -> String {
    let size = 2_000 + random.below(8_000)
    let marked = random.below(50) == 0
    var header = ""
    for hop in 0..<(1 + random.below(3)) {
        header += "Received: from relay\(hop).example.net (relay\(hop).example.net [192.0.2.\(hop)])\r\n\tby mx.example.org with ESMTPS id \(index)x\(hop);\r\n\tMon, 2 Mar 2026 10:\(10 + hop):00 +0000\r\n"
    }
    header += "Date: Mon, 2 Mar 2026 10:\(String(format: "%02d", index % 60)):00 +0100\r\nFrom: Sender \(index % 97) <sender\(index % 97)@example.com>\r\n"
    header += "To: team@example.org,\r\n  other\(index % 13)@example.org\r\nMessage-ID: <\(index)@bench.example>\r\n"
    header += random.below(5) == 0 ? "Subject: =?UTF-8?B?\(Data("Grüße zum \(words[index % words.count])".utf8).base64EncodedString())?=\r\n"
        : "Subject: \(words[index % words.count]) \(words[(index / 7) % words.count]) #\(index)\r\n"
    header += "MIME-Version: 1.0\r\n"
    let text = prose(&random, length: size - header.utf8.count - 300, marked: marked)
    switch random.below(20) {
    case 0..<11:
        return header + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + text
    case 11..<14:
        return header + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + quotedPrintable(text)
    case 14..<16:
        return header + "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64(Data(text.utf8))
    case 16..<18:
        let half = text.utf8.count / 2
        let plain = String(decoding: Array(text.utf8.prefix(half)), as: UTF8.self)
        return header + "Content-Type: multipart/alternative; boundary=\"alt\(index)\"\r\n\r\n--alt\(index)\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + quotedPrintable(plain) + "--alt\(index)\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>"
            + plain + "</p>\r\n--alt\(index)--\r\n"
    default:
        let half = text.utf8.count / 2
        var attachment = Data(count: half)
        for offset in 0..<half { attachment[offset] = UInt8(truncatingIfNeeded: random.next()) }
        return header + "Content-Type: multipart/mixed; boundary=\"mix\(index)\"\r\n\r\n--mix\(index)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            + String(decoding: Array(text.utf8.prefix(half)), as: UTF8.self) + "\r\n--mix\(index)\r\nContent-Type: application/octet-stream; name=\"data.bin\"\r\n"
            + "Content-Disposition: attachment; filename=\"data.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + base64(attachment) + "--mix\(index)--\r\n"
    }
}

/// A message as the session offers it: bytes in memory, parsed the first time it is asked and
/// then kept (as MailTransaction keeps its message).
final class Candidate: IMAPSearchCandidate {
    let sequenceNumber: UInt32
    let raw: Data
    private var parsed: MailMessage?
    init(_ sequenceNumber: UInt32, _ raw: Data) {
        self.sequenceNumber = sequenceNumber
        self.raw = raw
    }
    var uid: UInt32 { sequenceNumber }
    var flags: MailFlags { [] }
    var keywords: [String] { [] }
    var internalDate: Date { Date(timeIntervalSince1970: 1_700_000_000) }
    var size: Int { raw.count }
    var modSeq: UInt64 { 1 }
    var isRecent: Bool { false }
    var message: MailMessage {
        if let parsed { return parsed }
        let message = MailMessage(raw)
        parsed = message
        return message
    }
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "generate":
    let directory = URL(fileURLWithPath: arguments[2])
    let count = Int(arguments[3]) ?? 10_000
    for name in ["cur", "new", "tmp"] {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
    }
    var random = Random(state: 52)
    var bytes = 0, marked = 0
    for index in 0..<count {
        let text = message(index, &random)
        if text.contains("zebra") || text.contains("emVicm") { marked += 1 }
        bytes += text.utf8.count
        try Data(text.utf8).write(to: directory.appendingPathComponent("cur/\(1_700_000_000 + index).M\(index)P1.bench:2,S"))
    }
    print("generated \(count) messages, \(bytes) bytes, about \(marked) with zebra")
case "search":
    let directory = URL(fileURLWithPath: arguments[2]).appendingPathComponent("cur")
    let word = arguments[3]
    let rounds = Int(arguments[4]) ?? 5
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let raws = try names.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    let key = try IMAPSearchCommand.parse([.atom("TEXT"), .quoted(Array(word.utf8))]).get().key
    let context = IMAPSearchContext(messageCount: UInt32(raws.count), largestUID: UInt32(raws.count))
    /// One search over `candidates`: how many matched, and the milliseconds it took.
    func search(_ candidates: [Candidate]) -> (Int, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let found = candidates.filter { context.matches(key, $0) }.count
        return (found, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    func report(_ what: String, _ times: [Double], found: Int) {
        print(String(format: "mockserver SEARCH TEXT %@ (%@): %d of %d found, median %.1f ms (rounds: %@)", word, what, found, raws.count,
                     times.sorted()[times.count / 2], times.map { String(format: "%.1f", $0) }.joined(separator: " ")))
    }
    // Cold: fresh candidates each round, every message that needs decoding parsed by the search.
    var cold: [Double] = [], found = 0
    for _ in 0..<rounds {
        let (count, time) = search(raws.enumerated().map { Candidate(UInt32($0.offset + 1), $0.element) })
        cold.append(time)
        found = count
    }
    report("cold: messages parsed by the search", cold, found: found)
    // Warm: the same candidates again, their parsed messages kept, as the mail store keeps them.
    let candidates = raws.enumerated().map { Candidate(UInt32($0.offset + 1), $0.element) }
    _ = search(candidates)
    let warm = (0..<rounds).map { _ in search(candidates).1 }
    report("warm: parsed messages kept", warm, found: found)
default:
    print("usage: bench generate DIR COUNT | bench search DIR WORD ROUNDS")
}
