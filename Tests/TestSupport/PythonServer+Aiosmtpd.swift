import Testing

extension PythonServer {
    /// Whether Python has aiosmtpd (`pip install aiosmtpd`).
    public static var hasAiosmtpd: Bool {
        Tools.hasPython && ((try? Tools.python("import aiosmtpd").status) == 0)
    }

    /// aiosmtpd, the Python test sink, as the real SMTP server that client tests run beside ours:
    /// it prints its port first, then `delivered FROM TO,TO SIZE` for each message it takes; any
    /// login and password are accepted (AUTH PLAIN and LOGIN, allowed without TLS). With the
    /// arguments `CERT KEY` it offers STARTTLS with that identity.
    public static let aiosmtpd = """
        import asyncio, socket, ssl, sys, warnings, logging
        warnings.simplefilter("ignore")
        logging.disable(logging.CRITICAL)
        from aiosmtpd.smtp import SMTP, AuthResult
        class Handler:
            async def handle_DATA(self, server, session, envelope):
                print("delivered", envelope.mail_from, ",".join(envelope.rcpt_tos), len(envelope.content), flush=True)
                return "250 Message accepted for delivery"
        def authenticator(server, session, envelope, mechanism, auth_data):
            return AuthResult(success=True)
        context = None
        if len(sys.argv) > 2:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print(listener.getsockname()[1], flush=True)
        loop = asyncio.new_event_loop()
        factory = lambda: SMTP(Handler(), hostname="aiosmtpd.test", authenticator=authenticator, auth_require_tls=False, enable_SMTPUTF8=True, tls_context=context)
        loop.run_until_complete(loop.create_server(factory, sock=listener))
        loop.run_forever()
        """
}
