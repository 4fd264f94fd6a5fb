/// Why the control API would not start: a route a protocol adds takes a method and path that
/// another route takes already, the API's own or another protocol's. It names both.
package struct AdminRouteClash: Error, Equatable, CustomStringConvertible {
    /// The route that came second, as `COUNTER's GET /counter`.
    package let newcomer: String
    /// The route it clashes with, as `the control API's GET /files/PATH` or `TALLY's GET /counter`.
    package let holder: String

    package init(newcomer: String, holder: String) {
        self.newcomer = newcomer
        self.holder = holder
    }

    package var description: String {
        "\(newcomer) clashes with \(holder): the control API cannot answer both"
    }
}
