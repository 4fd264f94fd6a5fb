/// A message type, with the messages and enums declared inside it. Its extension and reserved
/// ranges are not kept: no answer depends on them.
package struct ProtoMessage: Sendable, Hashable {
    /// Its name (`Point`).
    package var name: String
    /// Its full name without a leading dot (`routeguide.Point`, `pkg.Outer.Inner`).
    package var fullName: String
    package var fields: [ProtoField]
    /// The names of its oneofs, in order (``ProtoField/oneofIndex`` indexes them).
    package var oneofs: [String]
    package var nestedMessages: [ProtoMessage]
    package var nestedEnums: [ProtoEnum]
    /// Whether it is a map field's entry (`map<K, V>` makes one: `key` = 1, `value` = 2).
    package var isMapEntry: Bool

    package init(name: String, fullName: String, fields: [ProtoField] = [], oneofs: [String] = [],
                 nestedMessages: [ProtoMessage] = [], nestedEnums: [ProtoEnum] = [], isMapEntry: Bool = false) {
        self.name = name
        self.fullName = fullName
        self.fields = fields
        self.oneofs = oneofs
        self.nestedMessages = nestedMessages
        self.nestedEnums = nestedEnums
        self.isMapEntry = isMapEntry
    }
}
