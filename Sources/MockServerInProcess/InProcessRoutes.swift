import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(HotPath) import MockServerCore

/// Every route of the process: one protocol class per configured session, and the routes
/// registered for `URLSession.shared` (the most recent first).
///
/// A route holds its mock's connector, responder and transcript, so the registry forgets a mock's
/// routes when the mock stops (``forget(_:)``): a long test process does not keep every stopped
/// mock alive. A class whose route was forgotten still takes its session's requests, and fails them
/// (see ``MockURLProtocol``).
package final class InProcessRoutes: Sendable {
    /// The process's routes.
    package static let shared = InProcessRoutes()

    private struct State {
        var nextNumber: UInt64 = 1
        var byClass: [ObjectIdentifier: InProcessRoute] = [:]
        var sharedRoutes: [InProcessRoute] = []
    }

    /// Read for every request (``route(of:)``, ``sharedRoute(for:)``).
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

    /// The route of a class made by ``protocolClass(for:)``; `nil` once its mock has stopped.
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

    /// Forgets every route of `connector`'s mock, the sessions' and the shared ones: called when
    /// the mock stops.
    package func forget(_ connector: LoopConnector) {
        state.withLock { state in
            state.byClass = state.byClass.filter { $0.value.connector !== connector }
        }
        removeShared(of: connector)
    }

    /// How many routes the registry holds for the mock of `environment` (the sessions' and the shared ones).
    package func count(for environment: ServerEnvironment) -> Int {
        state.withLock { state in
            state.byClass.values.count { $0.environment === environment } + state.sharedRoutes.count { $0.environment === environment }
        }
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
