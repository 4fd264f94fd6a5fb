extension String {
    /// The bytes as a string when they are valid UTF-8, `nil` otherwise (where `String(decoding:)`
    /// would repair them). `String(validating:as:)` does this from macOS 15 only.
    package init?<Bytes: Collection>(exactUTF8 bytes: Bytes) where Bytes.Element == UInt8 {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}
