import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A subclass of ``MockURLProtocol`` for one route, made at run time: `Tag` is a distinct type per
/// route (a chain of ``RouteTagZero``/``RouteTagOne`` spelling its number in binary), so that every
/// configuration gets a class of its own that knows its mock.
final class RoutedURLProtocol<Tag: RouteTag>: MockURLProtocol {
    override class var route: InProcessRoute? {
        InProcessRoutes.shared.route(of: ObjectIdentifier(self))
    }

    override class var isRouted: Bool { true }

}

/// The class for route number `number`: a distinct class for every number.
func routedProtocolClass(number: UInt64) -> MockURLProtocol.Type {
    routedProtocolClass(number, RouteTagEnd.self)
}

private func routedProtocolClass<T: RouteTag>(_ number: UInt64, _: T.Type) -> MockURLProtocol.Type {
    if number == 0 { return RoutedURLProtocol<T>.self }
    return number & 1 == 0 ? routedProtocolClass(number >> 1, RouteTagZero<T>.self) : routedProtocolClass(number >> 1, RouteTagOne<T>.self)
}
