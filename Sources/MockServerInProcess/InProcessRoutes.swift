import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerCore

/// Every route of the process: one protocol class per configured session, and the routes
/// registered for `URLSession.shared` (the most recent first).
package final class InProcessRoutes: Sendable {
    /// The process's routes.
    package static let shared = InProcessRoutes()

    private struct State {
        var nextNumber: UInt64 = 1
        var byClass: [ObjectIdentifier: InProcessRoute] = [:]
        var sharedRoutes: [InProcessRoute] = []
    }

    private let state = Locked(State())

    /// A new protocol class that sends what `route` accepts to its mock. Classes are never reused,
    /// so a session made for a stopped mock can never reach a later one.
    package func protocolClass(for route: InProcessRoute) -> MockURLProtocol.Type {
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        let protocolClass = routedProtocolClass(number: number)
        state.withLock { $0.byClass[ObjectIdentifier(protocolClass)] = route }
        return protocolClass
    }

    func route(of protocolClass: ObjectIdentifier) -> InProcessRoute? {
        state.withLock { $0.byClass[protocolClass] }
    }

    /// Sends what `route` accepts from `URLSession.shared` (and every session without a configured
    /// mock) to its mock, before any route registered earlier.
    package func addShared(_ route: InProcessRoute) {
        let first = state.withLock { state in
            state.sharedRoutes.append(route)
            return state.sharedRoutes.count == 1
        }
        if first { _ = URLProtocol.registerClass(MockURLProtocol.self) }
    }

    /// Removes the shared routes of `connector`'s mock.
    package func removeShared(of connector: LoopConnector) {
        let empty = state.withLock { state in
            let before = state.sharedRoutes.count
            state.sharedRoutes.removeAll { $0.connector === connector }
            return before > 0 && state.sharedRoutes.isEmpty
        }
        if empty { URLProtocol.unregisterClass(MockURLProtocol.self) }
    }

    func sharedRoute(for request: URLRequest) -> InProcessRoute? {
        state.withLock { $0.sharedRoutes.last { $0.accepts(request) } }
    }
}
