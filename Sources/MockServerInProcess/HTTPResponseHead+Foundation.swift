import MockServerHTTP

extension HTTPResponseHead {
    /// The header fields as `HTTPURLResponse` takes them: one value per name, repeated fields
    /// joined with commas.
    var foundationFields: [String: String] {
        // Sized once (see ``Swift/Dictionary/addFoundationField(name:value:)``).
        var fields = [String: String](minimumCapacity: headers.count)
        for field in headers { fields.addFoundationField(name: field.name, value: field.value) }
        return fields
    }
}

extension HTTPKnownResponse {
    /// The header fields as `HTTPURLResponse` takes them, as ``HTTPResponseHead/foundationFields``
    /// gives them for the head a client reads, without making that head.
    var foundationFields: [String: String] {
        var fields = [String: String](minimumCapacity: fieldCount)
        forEachField { fields.addFoundationField(name: $0, value: $1) }
        return fields
    }
}

extension [String: String] {
    /// Adds a header field as `HTTPURLResponse` takes them: a name seen before gets its value
    /// joined to the earlier ones with a comma. Each field is looked up once (the slot is joined in
    /// place): a response's few fields would otherwise hash every name twice.
    mutating func addFoundationField(name: String, value: String) {
        func join(_ slot: inout String?) {
            slot = slot.map { $0 + ", " + value } ?? value
        }
        join(&self[name])
    }
}
