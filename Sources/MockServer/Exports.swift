// The `MockServer` product's public API, by name: one `import MockServer` gives the server, its
// scripts, the HTTP types, stubs, mock data, the in-process protocol and the transcript. Each type
// is re-exported on its own (as Hummingbird's umbrella does), so that what a user sees is this list
// and nothing a layer keeps for the package; Docs/Layout.md's list of public types has the same names, and
// PackageLayoutTests holds that list equal to the sources.



// MockServerEngine
@_exported import class MockServerEngine.MockServer

// MockServerCore
@_exported import enum MockServerCore.FramingError
@_exported import protocol MockServerCore.InputFramer
@_exported import struct MockServerCore.InputUnit
@_exported import struct MockServerCore.MockServerLogger
@_exported import struct MockServerCore.NetworkConditions
@_exported import enum MockServerCore.ReplyStep
@_exported import class MockServerCore.SharedValues
@_exported import struct MockServerCore.NetworkAddress
@_exported import struct MockServerCore.SocketCallError
@_exported import enum MockServerCore.StreamFault
@_exported import class MockServerCore.Transcript

// MockServerHTTP
@_exported import struct MockServerHTTP.HTTPHeaderFields
@_exported import struct MockServerHTTP.HTTPReply
@_exported import struct MockServerHTTP.HTTPMockRequest
@_exported import struct MockServerHTTP.HTTPRequestContext
@_exported import protocol MockServerHTTP.HTTPMockResponder
@_exported import struct MockServerHTTP.HTTPMockResponse

// MockServerScript
@_exported import struct MockServerScript.AnyProtocolCommand
@_exported import enum MockServerScript.Framing
@_exported import struct MockServerScript.InputPattern
@_exported import struct MockServerScript.PatternError
@_exported import struct MockServerScript.PatternResponder
@_exported import protocol MockServerScript.ProtocolCommand
@_exported import struct MockServerScript.ResponseEntry
@_exported import struct MockServerScript.ResponseFileError
@_exported import struct MockServerScript.ResponseScript
@_exported import struct MockServerScript.ResponseSet
@_exported import struct MockServerScript.ResponseTemplate
@_exported import enum MockServerScript.ScriptCommand
@_exported import struct MockServerScript.ScriptConnections
@_exported import class MockServerScript.ScriptConnectionStorage
@_exported import struct MockServerScript.ScriptDecoding
@_exported import struct MockServerCore.JSONNode
@_exported import protocol MockServerScript.ScriptProtocol
@_exported import struct MockServerScript.ScriptProtocolVariable
@_exported import struct MockServerScript.ScriptReply
@_exported import protocol MockServerScript.ScriptResponder
@_exported import class MockServerScript.ScriptRun
@_exported import struct MockServerScript.ScriptSession
@_exported import struct MockServerScript.ScriptSettings
@_exported import struct MockServerScript.ScriptVocabulary
@_exported import struct MockServerScript.SubstitutionContext

// MockServerStubs
@_exported import class MockServerStubs.HTTPMockServer
@_exported import class MockServerStubs.Stub
@_exported import enum MockServerStubs.StubError
@_exported import struct MockServerStubs.UnexpectedRequestReport
@_exported import struct MockServerStubs.StubStream

// MockServerMockData
@_exported import enum MockServerMockData.MockDataError
@_exported import class MockServerMockData.MockDataResponder

// MockServerInProcess
@_exported import enum MockServerInProcess.MockServerError

// MockServerFTP

// MockServerWebDAV

// MockServerMail and MockServerMailScript: `MockServer.Mail` and its nested types, the whole public
// API of MockServerMailScript (an extension of the server): re-exported whole, so that a user's own
// public declarations may name them; the mail codecs stay package, for the fuzz package.
import MockServerMail
@_exported import MockServerMailScript

// MockServerWebSocket
@_exported import class MockServerWebSocket.WebSocketConnection

// MockServerTLS
@_exported import struct MockServerTLS.TLSSettings
@_exported import enum MockServerTLS.TLSError

// MockServerRecording
@_exported import class MockServerRecording.HTTPRecorder
@_exported import enum MockServerRecording.RecordingError
