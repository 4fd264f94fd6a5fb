import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking

extension URLSessionTask {
    /// The serial queue on which FoundationNetworking runs this task's loading and expects its
    /// protocol to call the client (its own protocols do): calls from another thread race with the
    /// session's bookkeeping and can crash it. Read by reflection of the task's stored `workQueue`;
    /// `nil` when the layout differs.
    var clientQueue: DispatchQueue? {
        Self.child("workQueue", of: self) as? DispatchQueue
    }

    /// Whether the session hands this task's data to its delegate piece by piece: a task made
    /// without a completion handler (`dataTask(with:)` in a session with a delegate). For tasks
    /// with one (`data(for:)` too), FoundationNetworking keeps only the last `didLoad`. Read by
    /// reflection of the session's task registry, whose `behaviours` say `callDelegate` for the
    /// first kind; `false` when the layout differs. Only on the task's own queue (the registry's rule).
    var sessionTakesPieces: Bool {
        guard let session = Self.child("session", of: self).flatMap({ Mirror(reflecting: $0).children.first?.value }),
              let registry = Self.child("taskRegistry", of: session),
              let behaviours = Self.child("behaviours", of: registry) else { return false }
        for entry in Mirror(reflecting: behaviours).children {
            let pair = Mirror(reflecting: entry.value).children.map(\.value)
            guard pair.count == 2, pair[0] as? Int == taskIdentifier else { continue }
            // A case without a payload prints as its name (qualified in some contexts).
            let behaviour = String(describing: pair[1])
            return behaviour == "callDelegate" || behaviour.hasSuffix(".callDelegate")
        }
        return false
    }

    /// The stored property `label` of `value`, its superclasses' included.
    private static func child(_ label: String, of value: Any) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            if let found = current.children.first(where: { $0.label == label }) { return found.value }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The body of an upload task made with data (`upload(for:from:)`), which FoundationNetworking
    /// keeps in the task rather than in its request, where a `URLProtocol` could see it. Read by
    /// reflection of the task's stored `knownBody`; `nil` when there is none or the layout differs.
    /// (These three readings are the only reflection of FoundationNetworking's internals here.)
    var uploadBodyData: Data? {
        Self.child("knownBody", of: self).flatMap(Self.data(in:))
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
