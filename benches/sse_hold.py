"""Holds COUNT server-sent-event streams open for SECONDS and reads them all:
the clients of the SSE memory measurement of benches/load-bench.sh.

Usage: python3 benches/sse_hold.py HOST PORT PATH COUNT SECONDS
Prints one line: "open=N events_min=A events_max=B" (the streams still open
at the end, and the fewest and most `data:` lines one stream received).
"""
import selectors
import socket
import sys
import time


def main():
    host, port, path, count, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
    selector = selectors.DefaultSelector()
    events = {}
    for _ in range(count):
        sock = socket.create_connection((host, port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        events[sock] = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            if not data:
                selector.unregister(sock)
                sock.close()
                continue
            events[sock] += data.count(b"\ndata:") + data.startswith(b"data:")
    open_ = len(selector.get_map())
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    print(f"open={open_} events_min={min(events.values())} events_max={max(events.values())}")


if __name__ == "__main__":
    main()
