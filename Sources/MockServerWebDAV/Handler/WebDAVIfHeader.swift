/// An `If` header (RFC 4918 §10.4): lists of conditions on lock tokens and entity tags, each list
/// optionally tagged with the resource it is about.
package struct WebDAVIfHeader: Equatable {
    /// One condition: a state token (`<opaquelocktoken:…>`) or an entity tag (`["…"]`), maybe negated.
    package struct Condition: Equatable {
        package enum Subject: Equatable {
            case token(String)
            case etag(String)
        }

        package let negated: Bool
        package let subject: Subject
    }

    /// A list: all its conditions must hold; `resource` is the tag's URI, `nil` for the request's.
    package struct List: Equatable {
        package let resource: String?
        package let conditions: [Condition]
    }

    package let lists: [List]

    /// The lock tokens the client submits (those named without `Not`).
    package var submittedTokens: Set<String> {
        Set(lists.flatMap(\.conditions).compactMap { condition in
            if case .token(let token) = condition.subject, !condition.negated { return token }
            return nil
        })
    }

    /// Parses the header; `nil` when it is malformed.
    package init?(_ text: String) {
        var rest = Substring(text)
        var lists: [List] = []
        var resource: String?
        func skipSpace() { rest = rest.drop { $0 == " " || $0 == "\t" } }
        skipSpace()
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            if rest.first == "<" {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                resource = String(rest[rest.index(after: rest.startIndex)..<end])
                rest = rest[rest.index(after: end)...]
                skipSpace()
                guard rest.first == "(" else { return nil }
            }
            guard rest.first == "(" else { return nil }
            rest = rest.dropFirst()
            var conditions: [Condition] = []
            while true {
                skipSpace()
                guard let first = rest.first else { return nil }
                if first == ")" {
                    rest = rest.dropFirst()
                    break
                }
                var negated = false
                // Only the next three characters: lowercasing the whole rest at each condition made
                // a long header cost quadratic time.
                if rest.prefix(3).lowercased() == "not" {
                    negated = true
                    rest = rest.dropFirst(3)
                    skipSpace()
                }
                switch rest.first {
                case "<":
                    guard let end = rest.firstIndex(of: ">") else { return nil }
                    conditions.append(Condition(negated: negated, subject: .token(String(rest[rest.index(after: rest.startIndex)..<end]))))
                    rest = rest[rest.index(after: end)...]
                case "[":
                    guard let end = rest.firstIndex(of: "]") else { return nil }
                    conditions.append(Condition(negated: negated, subject: .etag(String(rest[rest.index(after: rest.startIndex)..<end]))))
                    rest = rest[rest.index(after: end)...]
                default:
                    return nil
                }
            }
            guard !conditions.isEmpty else { return nil }
            lists.append(List(resource: resource, conditions: conditions))
            skipSpace()
        }
        self.lists = lists
    }
}
