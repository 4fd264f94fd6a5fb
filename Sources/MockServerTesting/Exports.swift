// `import MockServerTesting` is the one import a test needs: the testing helpers and MockServer's
// public API, re-exported name by name (as MockServer's own Exports.swift does), not as a module,
// so that nothing a layer keeps for the package shows. Generated from MockServer's Exports.swift:
// the same names, in the same order.


// MockServerEngine
@_exported import class MockServer.MockServer

// MockServerCore
@_exported import enum MockServer.FramingError
@_exported import protocol MockServer.InputFramer
@_exported import struct MockServer.InputUnit
@_exported import struct MockServer.MockServerLogger
@_exported import struct MockServer.NetworkConditions
@_exported import enum MockServer.ReplyStep
@_exported import class MockServer.SharedValues
@_exported import struct MockServer.NetworkAddress
@_exported import struct MockServer.SocketCallError
@_exported import enum MockServer.StreamFault
@_exported import class MockServer.Transcript

// MockServerHTTP
@_exported import struct MockServer.HTTPHeaderFields
@_exported import struct MockServer.HTTPReply
@_exported import struct MockServer.HTTPMockRequest
@_exported import struct MockServer.HTTPRequestContext
@_exported import protocol MockServer.HTTPMockResponder
@_exported import struct MockServer.HTTPMockResponse

// MockServerScript
@_exported import struct MockServer.AnyProtocolCommand
@_exported import enum MockServer.Framing
@_exported import struct MockServer.InputPattern
@_exported import struct MockServer.PatternError
@_exported import struct MockServer.PatternResponder
@_exported import protocol MockServer.ProtocolCommand
@_exported import struct MockServer.ResponseEntry
@_exported import struct MockServer.ResponseFileError
@_exported import struct MockServer.ResponseScript
@_exported import struct MockServer.ResponseSet
@_exported import struct MockServer.ResponseTemplate
@_exported import enum MockServer.ScriptCommand
@_exported import struct MockServer.ScriptConnections
@_exported import class MockServer.ScriptConnectionStorage
@_exported import struct MockServer.ScriptDecoding
@_exported import struct MockServer.JSONNode
@_exported import protocol MockServer.ScriptProtocol
@_exported import struct MockServer.ScriptProtocolVariable
@_exported import struct MockServer.ScriptReply
@_exported import protocol MockServer.ScriptResponder
@_exported import class MockServer.ScriptRun
@_exported import struct MockServer.ScriptSession
@_exported import struct MockServer.ScriptSettings
@_exported import struct MockServer.ScriptVocabulary
@_exported import struct MockServer.SubstitutionContext

// MockServerStubs
@_exported import class MockServer.HTTPMockServer
@_exported import class MockServer.Stub
@_exported import enum MockServer.StubError
@_exported import struct MockServer.UnexpectedRequestReport
@_exported import struct MockServer.StubStream

// MockServerMockData
@_exported import enum MockServer.MockDataError
@_exported import class MockServer.MockDataResponder

// MockServerInProcess
@_exported import enum MockServer.MockServerError

// MockServerFTP

// MockServerWebDAV

// MockServerWebSocket
@_exported import class MockServer.WebSocketConnection

// MockServerTLS
@_exported import struct MockServer.TLSSettings
@_exported import enum MockServer.TLSError

// MockServerRecording
@_exported import class MockServer.HTTPRecorder
@_exported import enum MockServer.RecordingError
