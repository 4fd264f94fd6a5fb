/// One POP3 command line cut into its keyword and its argument, with the form the transcript
/// records (secrets masked).
struct POP3Command {
    /// The keyword in upper case (`RETR`); empty for an empty line.
    let keyword: String
    /// What follows the first space, leading spaces removed (Dovecot's reading): `1` of
    /// `RETR 1`, the whole password of `PASS my secret`. Bad UTF-8 reads as U+FFFD.
    let argument: String
    /// The line as the transcript shows it: as received, except that the password of PASS, the
    /// digest of APOP and the initial response of AUTH read `MASKED`.
    let recorded: [UInt8]

    /// What a masked secret is recorded as, as the package's recordings mask secrets.
    static let masked = Array("MASKED".utf8)

    /// Reads a command line without its terminator.
    init(_ line: some Collection<UInt8>) {
        let bytes = Array(line)
        let space = bytes.firstIndex(of: 0x20) ?? bytes.endIndex
        keyword = POP3Session.text(bytes[..<space]).uppercased()
        var argumentStart = space
        while argumentStart < bytes.endIndex, bytes[argumentStart] == 0x20 { argumentStart += 1 }
        argument = POP3Session.text(bytes[argumentStart...])
        recorded = Self.masking(bytes, keyword: keyword, argumentStart: argumentStart)
    }

    /// `bytes` with the secret of PASS, APOP or AUTH replaced by ``masked``.
    private static func masking(_ bytes: [UInt8], keyword: String, argumentStart: Int) -> [UInt8] {
        let secretStart: Int
        switch keyword {
        case "PASS":
            secretStart = argumentStart
        case "APOP", "AUTH":
            // The word after the name (APOP) or mechanism (AUTH), if there is one.
            guard let nameEnd = bytes[argumentStart...].firstIndex(of: 0x20) else { return bytes }
            var start = nameEnd
            while start < bytes.endIndex, bytes[start] == 0x20 { start += 1 }
            secretStart = start
        default:
            return bytes
        }
        guard secretStart < bytes.endIndex else { return bytes }
        return Array(bytes[..<secretStart]) + masked
    }

    /// The first word of ``argument`` and the rest after its spaces (TOP's `1 10`, APOP's name
    /// and digest, AUTH's mechanism and initial response).
    var argumentWords: (first: Substring, rest: Substring) {
        let first = argument.prefix { $0 != " " }
        return (first, argument[first.endIndex...].drop { $0 == " " })
    }
}
