/// Why the route_guide harness could not start a server or build a client, in words.
struct RouteGuideHarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
