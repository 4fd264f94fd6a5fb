import MockServer
import MockServerCore

/// The network-condition options every serving command takes: `--latency`, `--jitter` and `--bandwidth`.
enum ConditionOption {
    /// The options' spellings.
    static let names: Set<String> = ["--latency", "--jitter", "--bandwidth"]

    /// Applies `argument` (one of ``names``) with its value `text` to `conditions`.
    ///
    /// - Parameter command: the subcommand's name and a colon (`mail: `) that starts its messages.
    /// - Throws: ``CommandLineError/usage(_:)`` naming the option and the value.
    static func apply(_ argument: String, value text: String, to conditions: inout NetworkConditions?, command: String = "") throws(CommandLineError) {
        var changed = conditions ?? NetworkConditions()
        switch argument {
        case "--bandwidth":
            guard let rate = Int(text), rate > 0 else { throw .usage("\(command)--bandwidth takes a number of bytes per second above 0, not \"\(text)\"") }
            changed.toClient.bytesPerSecond = rate
            changed.toServer.bytesPerSecond = rate
        default:
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw .usage("\(command)\(argument) takes seconds from 0 to 3600, not \"\(text)\"")
            }
            let duration = Duration.rounded(seconds: seconds)
            if argument == "--latency" { changed.toClient.latency = duration } else { changed.toClient.jitter = duration }
        }
        conditions = changed
    }
}
