/// An enum type.
package struct ProtoEnum: Sendable, Hashable {
    /// One named value.
    package struct Value: Sendable, Hashable {
        package var name: String
        package var number: Int32
        package init(name: String, number: Int32) {
            self.name = name
            self.number = number
        }
    }

    /// Its name (`Corpus`).
    package var name: String
    /// Its full name without a leading dot (`pkg.SearchRequest.Corpus`).
    package var fullName: String
    /// Its values in the order written (aliases included, with `allow_alias`).
    package var values: [Value]
    /// Whether it is closed (proto2): an unknown number is then kept as an unknown field rather
    /// than as the enum's value.
    package var isClosed: Bool

    package init(name: String, fullName: String, values: [Value], isClosed: Bool = false) {
        self.name = name
        self.fullName = fullName
        self.values = values
        self.isClosed = isClosed
    }
}
