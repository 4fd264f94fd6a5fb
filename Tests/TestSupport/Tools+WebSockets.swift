extension Tools {
    /// A Python program that runs `body`'s asyncio `main()`, written against `websockets`' client,
    /// with `URL` bound to `url`, for at most `seconds`: the WebSocket tests' one client program,
    /// for scripts and Swift handlers alike.
    public static func websocketsProgram(_ body: String, url: String, seconds: Int) -> String {
        """
        import asyncio, websockets
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus
        URL = "\(url)"
        \(body)
        asyncio.run(asyncio.wait_for(main(), \(seconds)))
        """
    }
}
