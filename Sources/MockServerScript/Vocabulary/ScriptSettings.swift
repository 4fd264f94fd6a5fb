/// The settings a script's protocols read, each protocol's in a `Sendable` type of its own: one
/// value of each type, read back by that type.
///
/// A protocol decodes the top-level keys it owns (``ScriptProtocol/settingKeys``) into its own type
/// in ``ScriptProtocol/settings(_:in:)``; its driver reads them with `script.settings[Type.self]`.
///
/// ```swift
/// struct EchoSettings: Sendable { var greeting: String }
/// let settings = ScriptSettings([EchoSettings(greeting: "hi")])
/// settings[EchoSettings.self]?.greeting  // "hi"
/// ```
public struct ScriptSettings: Sendable {
    /// Each value under its own dynamic type, so that a read by type finds only a value of that type.
    @usableFromInline var values: [ObjectIdentifier: any Sendable] = [:]

    /// Settings holding `values`, each under its own type; of two of one type, the last is kept.
    public init(_ values: [any Sendable] = []) {
        for value in values { self.values[ObjectIdentifier(type(of: value))] = value }
    }

    /// The value of type `type`, or `nil`; setting `nil` removes it.
    ///
    /// `@inlinable`, so that each caller gets it specialised for its own type: the generic one
    /// looked up `Optional`'s metadata for the type and boxed the value through it on every set,
    /// about 3,600 instructions a set, twice for each HTTP request a script answers.
    @inlinable
    public subscript<Settings: Sendable>(_ type: Settings.Type) -> Settings? {
        get { values[ObjectIdentifier(type)] as? Settings }
        set { values[ObjectIdentifier(type)] = newValue }
    }

    /// The value of type `type`, or `defaultValue` when there is none; a change through it is kept:
    /// `configuration.settings[MockServer.FTPServerSettings.self, default: .init()].maximumUploadSize = 1 << 20`.
    @inlinable
    public subscript<Settings: Sendable>(_ type: Settings.Type, default defaultValue: @autoclosure () -> Settings) -> Settings {
        get { self[type] ?? defaultValue() }
        set { self[type] = newValue }
    }

    /// These settings with each of `other`'s values in place of the one of its type.
    public func merging(_ other: ScriptSettings) -> ScriptSettings {
        var merged = self
        merged.values.merge(other.values) { _, new in new }
        return merged
    }

    /// Whether no protocol has settings here.
    public var isEmpty: Bool { values.isEmpty }
}
