extension String {
    /// `parts` one after another, made in one allocation of the exact size. The recorder's
    /// transcript notes are made for every exchange, where an interpolation grows and copies its
    /// text piece by piece.
    init(joining parts: String...) {
        var count = 0
        for part in parts { count += part.utf8.count }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for part in parts {
                offset += UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: part.utf8)
            }
            return offset
        }
    }
}
