#!/usr/bin/env python3
"""sse-fanout: one server-sent event stream to many clients at once, and how late each event arrives.

Usage: sse-fanout.py HOST PORT PATH CLIENTS EVENTS INTERVAL
Opens CLIENTS connections together (asyncio, raw sockets), sends GET PATH on each, and notes when
each event's `data: K` line arrives. The server sends event 0 at once and each later one INTERVAL
seconds after the one before, so event K is due K*INTERVAL after event 0 reached that client;
lateness is how much later it came. Prints the streams that ended complete, the lateness
percentiles over every event, and the client's own event-loop lag (a ticker that should wake every
10 ms), which bounds what lateness the client itself adds.
"""
import asyncio, sys, time

host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
clients, events, interval = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
late, complete, errors, lag = [], 0, [], [0.0]

async def ticker(stop):
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.01)
        lag[0] = max(lag[0], time.monotonic() - before - 0.01)

async def client(start):
    global complete
    await start.wait()
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    seen, first, buffer = 0, None, b""
    while seen < events:
        chunk = await reader.read(65536)
        if not chunk:
            raise ConnectionError(f"the stream ended after {seen} of {events} events")
        now = time.monotonic()
        buffer += chunk
        while seen < events and f"data: {seen}\n".encode() in buffer:
            if first is None:
                first = now
            else:
                late.append(now - (first + seen * interval))
            seen += 1
    complete += 1
    writer.close()

async def main():
    start, stop = asyncio.Event(), asyncio.Event()
    tick = asyncio.create_task(ticker(stop))
    tasks = [asyncio.create_task(client(start)) for _ in range(clients)]
    start.set()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            errors.append(repr(outcome))
    stop.set()
    await tick

asyncio.run(main())
late.sort()
def pct(p):
    return late[min(len(late) - 1, int(len(late) * p))] * 1000 if late else float("nan")
print(f"clients={clients} complete={complete} errors={len(errors)} events={len(late) + complete}"
      f" late_p50_ms={pct(0.5):.1f} late_p99_ms={pct(0.99):.1f} late_max_ms={late[-1] * 1000 if late else float('nan'):.1f}"
      f" client_loop_lag_max_ms={lag[0] * 1000:.1f}")
for error in errors[:3]:
    print("error:", error, file=sys.stderr)
