"""A loopback server over a hand-made site folder (clients/fixtures/site) that
answers like a static host: ETag, Last-Modified, Cache-Control max-age, 304 to
a matching If-None-Match. It records every request, and can be told to fail
(503), to hang (never answer) or be closed (connection refused)."""

from __future__ import annotations

import hashlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import List, NamedTuple, Optional

FIXTURE_SITE = Path(__file__).resolve().parent.parent.parent / "fixtures" / "site"


class Hit(NamedTuple):
    path: str
    status: int
    if_none_match: Optional[str]
    if_modified_since: Optional[str]


class FixtureServer:
    def __init__(self, root: Path = FIXTURE_SITE) -> None:
        self.hits: List[Hit] = []
        #: Requests the server took while hanging (it never answered them).
        self.hung: List[str] = []
        self.failing = False
        self.hanging = False
        self._closed = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
                path = self.path.split("?", 1)[0]
                if_none_match = self.headers.get("If-None-Match")
                if_modified_since = self.headers.get("If-Modified-Since")
                if server.hanging:
                    server.hung.append(path)
                    server._closed.wait(30)
                    return

                def answer(status: int, headers: dict, body: bytes = b"") -> None:
                    server.hits.append(Hit(path, status, if_none_match, if_modified_since))
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

                if server.failing:
                    return answer(503, {"Content-Type": "text/plain"}, b"down")
                file = root / path.lstrip("/")
                if ".." in path or not file.is_file():
                    return answer(404, {"Content-Type": "text/plain"}, b"not found")
                body = file.read_bytes()
                etag = '"%s"' % hashlib.sha256(body).hexdigest()[:32]
                headers = {
                    "ETag": etag,
                    "Last-Modified": "Fri, 27 Nov 2026 12:00:00 GMT",
                    "Cache-Control": "public, max-age=300",
                    "Content-Type": "application/json; charset=utf-8",
                }
                if if_none_match == etag:
                    return answer(304, headers)
                answer(200, headers, body)

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        if self._thread.is_alive():
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join()
