import MockServerCore
import MockServerHTTP

/// What one stub answered: how many requests, how many for each request path, and its first and
/// last answer in the server's order of answers (for ``HTTPMockServer``'s declared orders).
package struct StubHits: Sendable {
    /// The requests answered.
    package private(set) var count = 0
    /// The requests answered for each path as sent (percent escapes kept).
    package private(set) var byPath: [String: Int] = [:]
    /// The last path counted and its place in ``byPath``: a stub is usually asked for one path
    /// again and again, and comparing it costs less than hashing it. Set again after every path
    /// counted another way, which is when ``byPath`` may grow (and its places change).
    private var lastPath: (path: String, index: Dictionary<String, Int>.Index)?
    /// The first answer: its number among all the server's answers, and the request's method and
    /// target (kept as the request has them: a report puts them together, not every answer).
    package private(set) var first: (sequence: Int, method: String, target: String)?
    /// The last answer, as ``first``.
    package private(set) var last: (sequence: Int, method: String, target: String)?

    /// Counts `request`, the server's answer number `sequence`; returns how many came before it.
    mutating func add(_ request: HTTPMockRequest, sequence: Int) -> Int {
        defer { count += 1 }
        let path = request.path
        if let lastPath, lastPath.path == path {
            byPath.values[lastPath.index] += 1
        } else {
            byPath[path, default: 0] += 1
            lastPath = byPath.index(forKey: path).map { (path, $0) }
        }
        let answer = (sequence: sequence, method: request.method, target: request.target)
        if first == nil { first = answer }
        last = answer
        return count
    }

    /// How many requests for `path` were answered: `path` as sent or with its percent escapes decoded.
    package func count(forPath path: String) -> Int {
        let wanted = PercentCoding.decode(path.utf8) ?? Array(path.utf8)
        return byPath.reduce(0) { total, entry in
            entry.key == path || PercentCoding.decode(entry.key.utf8) == wanted ? total + entry.value : total
        }
    }
}
