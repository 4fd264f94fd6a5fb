extension PythonServer {
    /// pyftpdlib serving the folder given as its argument to anonymous users, read and write, with
    /// the greeting `220 pyftpdlib ready.`, on a port it prints first: the real FTP server that
    /// tests run beside the mock (`PythonServer(PythonServer.pyftpdlib, arguments: [folder])`).
    public static let pyftpdlib = """
        import logging, sys, warnings
        warnings.simplefilter("ignore")
        logging.disable(logging.CRITICAL)
        from pyftpdlib.authorizers import DummyAuthorizer
        from pyftpdlib.handlers import FTPHandler
        from pyftpdlib.servers import FTPServer
        authorizer = DummyAuthorizer()
        authorizer.add_anonymous(sys.argv[1], perm="elradfmwMT")
        FTPHandler.authorizer = authorizer
        FTPHandler.banner = "pyftpdlib ready."
        server = FTPServer(("127.0.0.1", 0), FTPHandler)
        print(server.socket.getsockname()[1], flush=True)
        server.serve_forever()
        """
}
