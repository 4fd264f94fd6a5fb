/// What a registered file descriptor wants to be told about.
package struct Interest: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let read = Interest(rawValue: 1)
    package static let write = Interest(rawValue: 2)
}
