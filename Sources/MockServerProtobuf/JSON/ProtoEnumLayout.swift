/// An enum as the JSON codec reads it: names by number and numbers by name, built once.
package struct ProtoEnumLayout: Sendable {
    /// Its full name without a leading dot.
    package let fullName: String
    /// Each number's name (the first of aliases).
    package let nameByNumber: [Int32: String]
    /// Each name's number.
    package let numberByName: [String: Int32]
    /// The name of its first value, the default (proto3's zero).
    package let defaultName: String
    /// The number of its first value.
    package let defaultNumber: Int32
    /// Whether an unknown number is dropped (proto2's closed enums) rather than kept as the number.
    package let isClosed: Bool

    package init(_ value: ProtoEnum) {
        fullName = value.fullName
        var names: [Int32: String] = [:]
        var numbers: [String: Int32] = [:]
        for entry in value.values {
            if names[entry.number] == nil { names[entry.number] = entry.name }
            numbers[entry.name] = entry.number
        }
        nameByNumber = names
        numberByName = numbers
        defaultName = value.values.first?.name ?? "0"
        defaultNumber = value.values.first?.number ?? 0
        isClosed = value.isClosed
    }

    /// The JSON of `number`: its name, or the number itself when the enum has no such value.
    package func json(_ number: Int32) -> String? { nameByNumber[number] }
}
