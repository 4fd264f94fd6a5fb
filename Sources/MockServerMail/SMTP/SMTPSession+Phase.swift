extension SMTPSession {
    /// Where the session stands: what the next input is, and what each state needs.
    enum Phase {
        /// Created; ``SMTPSession/start()`` not called yet.
        case idle
        /// The next input is a command line.
        case command
        /// The greeting refused service (a fault's 4xx or 5xx other than 421): only QUIT is
        /// answered with anything but `503` (RFC 5321 §3.1).
        case refusedGreeting
        /// The rest of an over-long command line, up to its line end, is discarded (its `500`
        /// is already sent); then commands again, or only QUIT after a refused greeting.
        case discardingLine(refusedGreeting: Bool)
        /// An AUTH exchange waits for the client's answer line.
        case authenticating(MailAuthExchange)
        /// DATA's text is arriving.
        case data(DataReceiver)
        /// A BDAT chunk is arriving.
        case chunk(ChunkReceiver)
        /// STARTTLS was answered: input is discarded until ``SMTPSession/tlsStarted()``.
        case awaitingTLS
        /// Closed (QUIT, a fault, the input ended): nothing more is answered.
        case closed
    }

    /// What DATA's scan of the text knows between reads (the text itself is in the transaction).
    struct DataReceiver {
        /// The next byte begins a line (after CRLF, or the first byte): a `.` there is either the
        /// end or a stuffed dot.
        var atLineStart = true
        /// The last byte consumed was CR: an LF first in the next read ends a line with CRLF.
        var afterCR = false
        /// The bytes of the current line so far, its line end included.
        var lineLength = 0
        /// A line was longer than the text-line limit.
        var lineTooLong = false
        /// The message grew past the size limit: its bytes are discarded, never held.
        var tooBig = false
        /// A fault asked to close after part of the data has arrived.
        var dropMidway = false
    }

    /// What a BDAT chunk still needs between reads.
    struct ChunkReceiver {
        /// The chunk's bytes not yet arrived.
        var remaining: UInt64
        /// The chunk's size, for its reply.
        var size: UInt64
        /// `BDAT … LAST`: the message ends with this chunk.
        var last: Bool
        /// The reply that refuses the chunk once it has all arrived (its bytes are discarded);
        /// nil to take the chunk.
        var refusal: [UInt8]?
        /// A fault's success line that stands in for the chunk's own `250`.
        var successLine: [UInt8]?
        /// A fault asked to close after part of the chunk has arrived.
        var dropMidway = false
        /// The greeting was refused: after the chunk, the session again answers only QUIT.
        var afterRefusedGreeting = false
    }
}
