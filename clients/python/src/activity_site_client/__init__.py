"""activity-site-client: the published API of an activity-site build, read the
way every client needs it: activities by id, times as instants on the game's
clock, due times, HTTP caching and the last good copy.

    from activity_site_client import ActivityClient
    client = ActivityClient("https://example.org")
    doc = client.game("sr", locale="en-US")
"""

from __future__ import annotations

import json
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, Union
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from ._errors import ActivitySiteError
from ._http import Http

__all__ = [
    "Activity",
    "ActivityClient",
    "ActivitySiteError",
    "Ending",
    "EndingSoon",
    "GameDocument",
    "naive_to_instant",
    "parse_instant",
]

#: The path of the index every game is listed in, under the site's address.
INDEX_PATH = "/api/v1/games.json"
#: The zone of a game whose index entry and document name none (the registry's default).
DEFAULT_TIME_ZONE = "Asia/Shanghai"


@dataclass(frozen=True)
class Activity:
    """An activity, with its times as aware datetimes."""

    #: The stable id the site publishes (``sr-4.6-03``); None on a site that publishes none.
    id: Optional[str]
    name: str
    kind: str
    description: str
    start: datetime
    end: datetime
    cover: str
    #: The naive wall times as published, in the game's zone.
    start_time: str
    end_time: str


@dataclass(frozen=True)
class GameDocument:
    """One game's document in one locale."""

    #: The game's id in the index (``sr``).
    id: str
    #: The game's name in this locale, from the index.
    name: str
    locale: str
    #: The IANA zone of the game's naive times.
    time_zone: str
    version: str
    version_name: str
    start: datetime
    end: datetime
    cover: str
    activities: Tuple[Activity, ...]
    #: ``version`` or ``activity``: what makes the document due; None when the site does not say.
    update_mode: Optional[str]
    #: When the document is due for an update; None when the site does not say.
    due_at: Optional[datetime]
    #: The due time has passed: the document may be out of date.
    stale: bool
    #: The network or the server failed and a kept copy was returned.
    from_cache: bool
    #: The document as published, every field (those this client does not read too).
    raw: Dict[str, Any] = field(repr=False, compare=False)


class Ending(NamedTuple):
    game: GameDocument
    activity: Activity
    #: The game has no document in the locale asked for, so its default locale's was read
    #: (``game.locale`` names the one read); False when no locale was asked for.
    fallback: bool = False


class EndingSoon(List[Ending]):
    """What ``ending_soon`` found, soonest end first, and in ``unavailable``
    the games neither the site nor a kept copy gave a document for in time,
    each with why (the others' activities are listed)."""

    def __init__(self, found: List[Ending], unavailable: List[Tuple[str, ActivitySiteError]]) -> None:
        super().__init__(found)
        self.unavailable = unavailable


def parse_instant(text: str) -> datetime:
    """An RFC 3339 time with an offset (``2026-07-29T06:00:00+08:00``) as an aware datetime."""
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        value = None
    if value is None or value.tzinfo is None or "T" not in text:
        raise ActivitySiteError("invalid", f"not an RFC 3339 time with an offset: {text}")
    return value


def naive_to_instant(text: str, zone: str) -> datetime:
    """A naive wall time (``2026-07-29T06:00:00``) of an IANA zone as an aware
    datetime, resolved like RFC 9557's "compatible": the earlier offset in a
    fold (``fold=0``), moved forward by the gap in a gap (what zoneinfo does
    with ``fold=0``). The result carries the fixed offset that holds at that
    instant, like a parsed ``startsAt``: a datetime with a ZoneInfo in a fold
    never compares equal to another zone's (PEP 495)."""
    try:
        naive = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        raise ActivitySiteError("invalid", f"not a time of the form YYYY-MM-DDTHH:MM:SS: {text}") from None
    tz = ZoneInfo(zone)
    utc = naive.replace(tzinfo=tz).astimezone(timezone.utc)
    return utc.astimezone(timezone(utc.astimezone(tz).utcoffset() or timedelta(0)))


class ActivityClient:
    """A reader of one site.

    ``base_url`` is the site's address with its scheme (``https://example.org``;
    a trailing ``/api/v1`` or ``/api/v1/activity`` is the same site);
    ``cache_dir`` keeps the last good copy of every file across runs;
    ``max_body_bytes`` (4 MiB) bounds a body; ``timeout`` (10 s) bounds a
    request, and all the requests of one ``ending_soon`` together; after a failure, the kept copy is returned without asking again
    for ``retry_after`` (5 minutes); ``clock`` (the system's; it gives aware datetimes) is what
    ``stale`` and ``ending_soon`` read; ``opener`` is the urllib opener to
    use (a proxy, a handler)."""

    def __init__(
        self,
        base_url: str,
        *,
        cache_dir: Union[str, Path, None] = None,
        max_body_bytes: int = 4 * 1024 * 1024,
        timeout: float = 10.0,
        retry_after: timedelta = timedelta(minutes=5),
        clock: Optional[Callable[[], datetime]] = None,
        opener: Optional[urllib.request.OpenerDirector] = None,
    ) -> None:
        self._base = _site_root(base_url)
        self._timeout = timeout
        read = clock or (lambda: datetime.now(timezone.utc))

        def now() -> datetime:
            value = read()
            if value.tzinfo is None:
                raise ValueError("the clock must give an aware datetime, such as datetime.now(timezone.utc)")
            return value

        self._clock = now
        self._http = Http(
            clock=self._clock,
            max_body_bytes=max_body_bytes,
            timeout=timeout,
            retry_after=retry_after.total_seconds(),
            cache_dir=Path(cache_dir) if cache_dir is not None else None,
            opener=opener or urllib.request.build_opener(),
        )

    def games(self) -> List[Dict[str, Any]]:
        """The games the index lists, as published (``id``, ``name``, ``locales``, ``timeZone``, ...)."""
        return self._index()[0]

    def _index(self) -> Tuple[List[Dict[str, Any]], bool]:
        """The games the index lists, and whether the index is the kept copy."""
        body, from_cache = self._http.get(self._base + INDEX_PATH)
        return _games(_parse(body, INDEX_PATH)), from_cache

    def game(self, id: str, locale: Optional[str] = None) -> GameDocument:
        """A game's document, in its default locale unless ``locale`` is given."""
        games, index_from_cache = self._index()
        game = next((g for g in games if g.get("id") == id), None)
        if game is None:
            known = ", ".join(str(g.get("id")) for g in games)
            raise ActivitySiteError("unknown-game", f'the site lists no game "{id}"; it lists: {known}')
        return self._read(game, locale, index_from_cache)

    def _read(
        self, game: Dict[str, Any], locale: Optional[str], index_from_cache: bool, deadline: Optional[float] = None
    ) -> GameDocument:
        """The document of a game the index lists, in ``locale`` or the game's default."""
        wanted = locale or _default_locale(game)
        files = [f for f in game["files"] if f["locale"] == wanted]
        file = next((f for f in files if locale is not None or f.get("default")), None)
        file = file or (files[0] if files else None)
        if file is None:
            published = ", ".join(dict.fromkeys(f["locale"] for f in game["files"]))
            why = " yet (it is listed as pending)" if wanted in game.get("pending", []) else ""
            raise ActivitySiteError(
                "unknown-locale",
                f'game "{game["id"]}" has no document in locale "{wanted}"{why}; it has: {published}',
            )
        body, from_cache = self._http.get(self._base + file["path"], deadline)
        raw = _parse(body, file["path"])
        return self._document(game, file, wanted, raw, from_cache or index_from_cache)

    def ending_soon(self, within: timedelta = timedelta(hours=72), locale: Optional[str] = None) -> EndingSoon:
        """The activities of every game that end within ``within`` from now,
        soonest first: each game's document in ``locale`` where it has one,
        else in its default locale (``fallback`` says which). The call takes
        about one ``timeout`` at most: its requests run together under one
        deadline, and a game the site does not answer for in time gives its
        kept copy (``from_cache``), or is listed in ``unavailable``."""
        if not isinstance(within, timedelta):
            raise TypeError(
                f"ending_soon: within must be a datetime.timedelta, such as timedelta(hours=48); "
                f"got {type(within).__name__} {within!r}"
            )
        if locale is not None and not isinstance(locale, str):
            raise TypeError(f'ending_soon: locale must be a str such as "en-US"; got {type(locale).__name__}')
        deadline = time.monotonic() + self._timeout
        now = self._clock()
        until = now + within
        body, index_from_cache = self._http.get(self._base + INDEX_PATH, deadline)
        games = _games(_parse(body, INDEX_PATH))

        def read(game: Dict[str, Any]) -> Tuple[List[Ending], Optional[Tuple[str, ActivitySiteError]]]:
            in_locale = locale is not None and any(f.get("locale") == locale for f in game.get("files", []))
            try:
                doc = self._read(game, locale if in_locale else None, index_from_cache, deadline)
            except Exception as error:  # one game's failure is reported, not raised
                return [], (str(game.get("id")), _as_site_error(error, str(game.get("id"))))
            fallback = locale is not None and not in_locale
            return [Ending(doc, a, fallback) for a in doc.activities if now < a.end <= until], None

        found: List[Ending] = []
        unavailable: List[Tuple[str, ActivitySiteError]] = []
        with ThreadPoolExecutor(max_workers=max(1, min(16, len(games)))) as pool:
            for endings, failed in pool.map(read, games):
                found.extend(endings)
                if failed is not None:
                    unavailable.append(failed)
        return EndingSoon(sorted(found, key=lambda e: e.activity.end), unavailable)

    def _document(
        self, game: Dict[str, Any], file: Dict[str, Any], locale: str, raw: Dict[str, Any], from_cache: bool
    ) -> GameDocument:
        zone = raw.get("timeZone") or game.get("timeZone") or DEFAULT_TIME_ZONE

        def instant(with_offset: Optional[str], naive: str) -> datetime:
            return parse_instant(with_offset) if with_offset else naive_to_instant(naive, zone)

        due = raw.get("dueAt") or file.get("dueAt")
        due_at = parse_instant(due) if due else None
        return GameDocument(
            id=game["id"],
            name=_game_name(game, locale),
            locale=locale,
            time_zone=zone,
            version=raw["version"],
            version_name=raw["versionName"],
            start=instant(raw.get("startsAt"), raw["startTime"]),
            end=instant(raw.get("endsAt"), raw["endTime"]),
            cover=raw.get("cover", ""),
            activities=tuple(
                Activity(
                    id=a.get("id"),
                    name=a["name"],
                    kind=a.get("kind", ""),
                    description=a.get("description", ""),
                    start=instant(a.get("startsAt"), a["startTime"]),
                    end=instant(a.get("endsAt"), a["endTime"]),
                    cover=a.get("cover", ""),
                    start_time=a["startTime"],
                    end_time=a["endTime"],
                )
                for a in raw["activities"]
            ),
            update_mode=raw.get("updateMode") or file.get("updateMode"),
            due_at=due_at,
            stale=due_at is not None and self._clock() >= due_at,
            from_cache=from_cache,
            raw=raw,
        )


def _site_root(base_url: object) -> str:
    """The site root of a base URL as users write it: trailing slashes
    dropped, and a base that already names the API (``…/api/v1``,
    ``…/api/v1/activity``) cut back to the root, as the tool's ``diff`` reads it."""
    if not isinstance(base_url, str):
        raise TypeError(f'base_url must be a str such as "https://example.org"; got {type(base_url).__name__}')
    text = base_url.strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        rest = text.split("://", 1)[1] if "://" in text else text
        raise ValueError(
            f'base_url "{text}" is not an http or https address: write the scheme too, '
            f'such as "https://{rest or "example.org"}"'
        )
    root = text.rstrip("/")
    for api in ("/api/v1/activity", "/api/v1"):
        if root.endswith(api):
            return root[: -len(api)].rstrip("/")
    return root


def _games(index: Any) -> List[Dict[str, Any]]:
    games = index.get("games") if isinstance(index, dict) else None
    if not isinstance(games, list):
        raise ActivitySiteError("invalid", f"{INDEX_PATH} has no games list")
    return games


def _default_locale(game: Dict[str, Any]) -> str:
    """The locale a game's un-suffixed document is in: the index's, else the file marked default."""
    files = game.get("files") or []
    marked = [f["locale"] for f in files if f.get("default")]
    candidates = [game.get("defaultLocale"), *marked, *(game.get("locales") or []), *(f["locale"] for f in files)]
    return next((str(c) for c in candidates if c), "")


def _game_name(game: Dict[str, Any], locale: str) -> str:
    """The game's name in ``locale``: the one string, else the locale's, the default locale's, any."""
    name = game.get("name")
    if isinstance(name, str):
        return name
    if isinstance(name, dict):
        for value in (name.get(locale), name.get(_default_locale(game)), *name.values()):
            if isinstance(value, str) and value:
                return value
    return str(game["id"])


def _as_site_error(error: Exception, game: str) -> ActivitySiteError:
    if isinstance(error, ActivitySiteError):
        return error
    wrapped = ActivitySiteError("invalid", f'game "{game}": {error}')
    wrapped.__cause__ = error
    return wrapped


def _parse(body: str, path: str) -> Any:
    try:
        return json.loads(body)
    except ValueError as error:
        raise ActivitySiteError("invalid", f"{path} is not JSON: {error}") from None
