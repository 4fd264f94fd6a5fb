import MockServerHTTP

extension HTTPResponseHead {
    /// The header fields as `HTTPURLResponse` takes them: one value per name, repeated fields
    /// joined with commas.
    var foundationFields: [String: String] {
        // Sized once, and each field looked up once (the slot is joined in place): a response's
        // few fields would otherwise grow the table and hash every name twice.
        var fields = [String: String](minimumCapacity: headers.count)
        func join(_ slot: inout String?, _ value: String) {
            slot = slot.map { $0 + ", " + value } ?? value
        }
        for field in headers {
            join(&fields[field.name], field.value)
        }
        return fields
    }
}
