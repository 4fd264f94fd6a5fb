/// What strict verification finds among a server's stubs: each stub that answered no request, and
/// each request that arrived out of a declared order, as reports in the style of the
/// unexpected-request report (a headline, the request or stub indented, what to do).
package enum StrictVerification {
    /// The reports for `stubs` and the declared `orders`, unused stubs first (oldest first), then
    /// one report for each stub of an order that answered a request before the stubs declared
    /// ahead of it were done.
    package static func reports(stubs: [Stub], orders: [[Stub]]) -> [String] {
        var reports: [String] = []
        for stub in stubs where stub.hits == 0 {
            reports.append("""
                MockServer: a stub answered no request (strict verification)

                  \(stub.description)

                A strict test uses every stub it adds: make the request it stubs, or remove it.

                """)
        }
        for order in orders {
            let declared = order.map(\.description).joined(separator: ", then ")
            for (place, stub) in order.enumerated() {
                guard let first = stub.answered.first else { continue }
                // The last request an earlier stub of the order answered after this stub's first.
                let earlier = order[..<place].compactMap { other -> (Stub, (sequence: Int, method: String, target: String))? in
                    guard let last = other.answered.last, last.sequence > first.sequence else { return nil }
                    return (other, last)
                }
                guard let (other, late) = earlier.max(by: { $0.1.sequence < $1.1.sequence }) else { continue }
                reports.append("""
                    MockServer: a request arrived out of the declared order (strict verification)

                      \(first.method) \(first.target)

                    was answered by \(stub.description) (answer \(first.sequence)) before

                      \(late.method) \(late.target)

                    was answered by \(other.description) (answer \(late.sequence)), which the order puts first: \(declared).

                    """)
            }
        }
        return reports
    }
}
