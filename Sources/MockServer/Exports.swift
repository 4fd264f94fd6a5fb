// The `MockServer` product is the whole public API: the layers below it are re-exported, so one
// `import MockServer` gives the server, its scripts, the HTTP types and the transcript.
@_exported import MockServerCore
@_exported import MockServerHTTP
@_exported import MockServerScript
@_exported import MockServerStubs
@_exported import MockServerMockData
@_exported import MockServerInProcess
// FTP's and WebDAV's script commands, by name: the rest of those targets is the server's business.
@_exported import enum MockServerFTP.FTPScriptCommand
@_exported import struct MockServerFTP.FTPScriptProtocol
@_exported import enum MockServerFTP.FTPTransfer
@_exported import enum MockServerWebDAV.WebDAVScriptCommand
@_exported import struct MockServerWebDAV.WebDAVScriptProtocol
