"""One GET with what a reader of a static API owes it: the freshness the
server gives (Cache-Control max-age), revalidation (If-None-Match,
If-Modified-Since; a 304 keeps the body), a bounded body, and the last good
copy (in memory, and on disk when given a folder) when the network or the
server fails."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, replace
from http.client import HTTPException, HTTPResponse
from datetime import datetime
from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

from ._errors import ActivitySiteError


@dataclass(frozen=True)
class _Entry:
    url: str
    body: str
    etag: Optional[str]
    last_modified: Optional[str]
    #: Until when (seconds since the epoch) the copy may be used without asking.
    fresh_until: float


def max_age(header: Optional[str]) -> int:
    """The max-age of a Cache-Control header in seconds; 0 for no-cache, no-store or none."""
    if not header:
        return 0
    directives = [d.strip() for d in header.lower().split(",")]
    if "no-cache" in directives or "no-store" in directives:
        return 0
    for directive in directives:
        m = re.fullmatch(r"max-age=(\d+)", directive)
        if m:
            return int(m.group(1))
    return 0


class Http:
    def __init__(
        self,
        *,
        clock: Callable[[], datetime],
        max_body_bytes: int,
        timeout: float,
        retry_after: float,
        cache_dir: Optional[Path],
        opener: urllib.request.OpenerDirector,
    ) -> None:
        self._clock = clock
        self._max_body_bytes = max_body_bytes
        self._timeout = timeout
        self._retry_after = retry_after
        #: After a failure, until when the kept copy is returned without asking again.
        self._retry_at: Dict[str, float] = {}
        self._cache_dir = cache_dir
        self._opener = opener
        self._memory: Dict[str, _Entry] = {}

    def get(self, url: str, deadline: Optional[float] = None) -> Tuple[str, bool]:
        """The body of `url`, and whether it is the kept copy returned because
        the network or the server failed. With a `deadline` (a
        `time.monotonic()` reading), the request waits no later than it, and
        none is made once it has passed: the kept copy is returned, marked, or
        the call fails."""
        now = self._clock().timestamp()
        kept = self._memory.get(url) or self._read_disk(url)
        if kept is not None and now < kept.fresh_until:
            return kept.body, False
        if kept is not None and now < self._retry_at.get(url, 0.0):
            return kept.body, True

        # The time left to the caller's deadline bounds this request as the timeout does.
        left = self._timeout if deadline is None else min(self._timeout, deadline - time.monotonic())
        if left <= 0:
            if kept is not None:
                return kept.body, True
            raise ActivitySiteError("network", f"GET {url} was not made: the call's time (timeout) had run out")
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        if kept is not None and kept.etag:
            request.add_header("If-None-Match", kept.etag)
        if kept is not None and kept.last_modified:
            request.add_header("If-Modified-Since", kept.last_modified)
        try:
            with self._opener.open(request, timeout=left) as response:
                headers = response.headers
                body = self._read_body(url, response)
        except urllib.error.HTTPError as error:
            error.close()
            if error.code == 304 and kept is not None:
                entry = replace(
                    kept,
                    etag=error.headers.get("ETag") or kept.etag,
                    last_modified=error.headers.get("Last-Modified") or kept.last_modified,
                    fresh_until=now + max_age(error.headers.get("Cache-Control")),
                )
                self._keep(entry)
                return entry.body, False
            if error.code >= 500 and kept is not None:
                self._retry_at[url] = now + self._retry_after
                return kept.body, True
            raise ActivitySiteError("http", f"GET {url} answered {error.code}") from None
        except (OSError, HTTPException) as error:
            # Connection refused or reset, a DNS failure, the timeout, a cut answer.
            if kept is not None:
                self._retry_at[url] = now + self._retry_after
                return kept.body, True
            raise ActivitySiteError("network", f"GET {url} failed: {error}") from error
        self._retry_at.pop(url, None)
        self._keep(
            _Entry(
                url=url,
                body=body,
                etag=headers.get("ETag"),
                last_modified=headers.get("Last-Modified"),
                fresh_until=now + max_age(headers.get("Cache-Control")),
            )
        )
        return body, False

    def _read_body(self, url: str, response: HTTPResponse) -> str:
        limit = self._max_body_bytes
        too_large = ActivitySiteError(
            "too-large", f"GET {url}: the body is larger than {limit} bytes (max_body_bytes)"
        )
        declared = response.headers.get("Content-Length") or ""
        if declared.isdigit() and int(declared) > limit:
            raise too_large
        data = response.read(limit + 1)
        if len(data) > limit:
            raise too_large
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ActivitySiteError("invalid", f"GET {url}: the body is not UTF-8") from error

    def _file(self, url: str) -> Optional[Path]:
        if self._cache_dir is None:
            return None
        return self._cache_dir / (hashlib.sha256(url.encode()).hexdigest() + ".json")

    def _keep(self, entry: _Entry) -> None:
        self._memory[entry.url] = entry
        file = self._file(entry.url)
        if file is None:
            return
        file.parent.mkdir(parents=True, exist_ok=True)
        # Written beside and renamed, so a reader never sees half a file.
        fd, temp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(asdict(entry), out)
        os.replace(temp, file)

    def _read_disk(self, url: str) -> Optional[_Entry]:
        file = self._file(url)
        if file is None:
            return None
        try:
            entry = _Entry(**json.loads(file.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            # Absent or unreadable: as if nothing were kept.
            return None
        if entry.url != url or not isinstance(entry.body, str):
            return None
        self._memory[url] = entry
        return entry
