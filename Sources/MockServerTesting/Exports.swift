// `import MockServerTesting` is the one import a test needs: the testing helpers and the whole of
// `MockServer` (HTTPMockServer, the stub DSL, MockServer itself), whose own exports are chosen
// symbol by symbol.
@_exported import MockServer
