import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking

extension URLSessionTask {
    /// The serial queue on which FoundationNetworking runs this task's loading and expects its
    /// protocol to call the client (its own protocols do): calls from another thread race with the
    /// session's bookkeeping and can crash it. Read by reflection of the task's stored `workQueue`;
    /// `nil` when the layout differs.
    var clientQueue: DispatchQueue? {
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            if let queue = current.children.first(where: { $0.label == "workQueue" })?.value as? DispatchQueue { return queue }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The body of an upload task made with data (`upload(for:from:)`), which FoundationNetworking
    /// keeps in the task rather than in its request, where a `URLProtocol` could see it. Read by
    /// reflection of the task's stored `knownBody`; `nil` when there is none or the layout differs.
    /// (These two readings are the only reflection of FoundationNetworking's internals here.)
    var uploadBodyData: Data? {
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            if let known = current.children.first(where: { $0.label == "knownBody" }) {
                return Self.data(in: known.value)
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The bytes of a `.data(DispatchData)` case inside `value` (through an optional).
    private static func data(in value: Any) -> Data? {
        for child in Mirror(reflecting: value).children {
            if let bytes = child.value as? DispatchData { return Data(bytes) }
            if child.label == "some" || child.label == "data", let nested = data(in: child.value) { return nested }
        }
        return nil
    }
}
#endif
