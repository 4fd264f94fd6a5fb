/// What a registered file descriptor wants to be told about.
struct Interest: OptionSet, Sendable {
    let rawValue: UInt8
    static let read = Interest(rawValue: 1)
    static let write = Interest(rawValue: 2)
}
