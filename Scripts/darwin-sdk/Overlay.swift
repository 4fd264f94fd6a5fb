// Stand-ins for the few names that Swift's own Darwin overlay adds on a Mac, which a module built
// from the C headers alone does not have. Only their types matter: this file is type-checked, never run.
import Darwin

public var errno: Int32 { get { 0 } set {} }
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { 0 }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { 0 }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ pointer: UnsafeMutableRawPointer) -> Int32 { 0 }
public var SIG_DFL: sig_t? { nil }
public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }
