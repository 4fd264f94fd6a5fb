extension Tools {
    /// Python that defines `frames(s)`: a generator of the HTTP/2 frames (hyperframe's) that arrive
    /// on socket `s`, each parsed whole however the reads split it, until the server's end of the
    /// connection. The raw-frame tests' one reader, to put before a program's own lines.
    public static let hyperframeReader = """
        from hyperframe.frame import Frame
        def frames(s):
            buf = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: return
                buf += chunk
                while len(buf) >= 9:
                    frame, length = Frame.parse_frame_header(memoryview(buf[:9]))
                    if len(buf) < 9 + length: break
                    frame.parse_body(memoryview(buf[9:9 + length])); buf = buf[9 + length:]
                    yield frame

        """
}
