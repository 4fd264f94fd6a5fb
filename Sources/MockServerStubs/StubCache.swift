import MockServerCore

/// Values shared by every request of one server (Voodoo's pan-request cache): a login stores the
/// user's name, the profile reads it. Lives as long as the server; safe from any thread.
///
/// ```swift
/// server.add(.POST, "/login") { request, cache in cache.username = request.formParameters.name; return .ok() }
/// ```
public typealias StubCache = SharedValues
