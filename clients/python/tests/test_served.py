"""The client against a served build (`activity-site serve`, or a built site
behind a static server), run by .ci/e2e-clients.sh. Skipped unless
ACTIVITY_SITE_URL is set. The environment it reads:

- ACTIVITY_SITE_URL: the site's address
- ACTIVITY_SITE_NOW: the instant the client's clock reads (RFC 3339)
- ACTIVITY_SITE_TOKYO: the id of a game the index puts on Asia/Tokyo
- ACTIVITY_SITE_CACHE_DIR: the cache folder shared by the two phases
- ACTIVITY_SITE_OFFLINE=1: the second phase: the server no longer answers
"""

from __future__ import annotations

import os
import re
import urllib.request
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest

from activity_site_client import ActivityClient, naive_to_instant

URL = os.environ.get("ACTIVITY_SITE_URL")
OFFLINE = os.environ.get("ACTIVITY_SITE_OFFLINE") == "1"
NOW = datetime.fromisoformat(os.environ.get("ACTIVITY_SITE_NOW", "2026-10-19T00:00:00+08:00"))
TOKYO = os.environ.get("ACTIVITY_SITE_TOKYO", "ba-jp")
CACHE_DIR = os.environ.get("ACTIVITY_SITE_CACHE_DIR")
ID = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")

online = pytest.mark.skipif(not URL or OFFLINE, reason="ACTIVITY_SITE_URL is not set (or the offline phase)")
offline = pytest.mark.skipif(not URL or not OFFLINE, reason="not the offline phase of a served build")


class Recorder(urllib.request.BaseHandler):
    """Records [path, status] of every answer, 304s included (it runs before
    the handler that turns them into errors)."""

    handler_order = 0

    def __init__(self) -> None:
        self.seen: list = []

    def http_response(self, request, response):
        self.seen.append((urlsplit(request.full_url).path, response.status))
        return response

    https_response = http_response


def recording(clock):
    recorder = Recorder()
    client = ActivityClient(
        URL, clock=clock, cache_dir=CACHE_DIR, opener=urllib.request.build_opener(recorder)
    )
    return client, recorder.seen


def every_document(client):
    games = client.games()
    return [
        client.game(g["id"], locale=locale) for g in games for locale in dict.fromkeys(f["locale"] for f in g["files"])
    ]


@online
def test_every_activity_has_an_id_the_same_in_every_locale():
    docs = every_document(ActivityClient(URL, clock=lambda: NOW))
    assert len(docs) > 10
    paired = 0
    for doc in docs:
        ids = [a.id for a in doc.activities]
        assert all(ID.match(i or "") for i in ids), (doc.id, doc.locale, ids)
        assert len(set(ids)) == len(ids), (doc.id, doc.locale)
        # An activity with the same times, alone at them in both locales, is the same activity.
        for other in (d for d in docs if d.id == doc.id and d.locale != doc.locale):
            for a in doc.activities:
                def at(d):
                    return [b for b in d.activities if (b.start_time, b.end_time) == (a.start_time, a.end_time)]

                if len(at(doc)) == 1 and len(at(other)) == 1:
                    assert at(other)[0].id == a.id, (a.name, other.locale)
                    paired += 1
    assert paired > 0


@online
def test_instants_equal_the_naive_time_in_the_game_zone_tokyo_included():
    client = ActivityClient(URL, clock=lambda: NOW)
    games = client.games()
    assert next(g for g in games if g["id"] == TOKYO)["timeZone"] == "Asia/Tokyo"
    for entry in games:
        doc = client.game(entry["id"])
        assert doc.time_zone == entry["timeZone"]
        zone = ZoneInfo(doc.time_zone)
        for a in doc.activities:
            assert a.start.astimezone(zone).strftime("%Y-%m-%dT%H:%M:%S") == a.start_time
            assert a.end.astimezone(zone).strftime("%Y-%m-%dT%H:%M:%S") == a.end_time
            # The site's instant and this client's reading of the naive time agree.
            assert naive_to_instant(a.end_time, doc.time_zone) == a.end
        if entry["id"] == TOKYO:
            assert doc.activities[0].start.utcoffset() == timedelta(hours=9)


@online
def test_the_second_read_is_a_conditional_request_answered_304():
    clock = [NOW]
    client, seen = recording(lambda: clock[0])
    first = client.game(TOKYO)
    assert [status for _, status in seen] == [200, 200]
    clock[0] = NOW + timedelta(days=1)
    second = client.game(TOKYO)
    assert seen[2:] == [("/api/v1/games.json", 304), (seen[3][0], 304)]
    assert seen[3][0].endswith(f"/{TOKYO}.json")
    assert second.activities == first.activities
    assert second.from_cache is False
    # Fills the cache folder the offline phase reads.
    client.ending_soon(within=timedelta(hours=1))


@online
def test_stale_from_the_published_due_time():
    docs = every_document(ActivityClient(URL, clock=lambda: NOW))
    for doc in docs:
        assert doc.due_at is not None, (doc.id, doc.locale)
        assert doc.stale is (NOW >= doc.due_at)
    assert any(d.stale for d in docs) and not all(d.stale for d in docs)
    due = docs[0].due_at
    before = ActivityClient(URL, clock=lambda: due - timedelta(seconds=1)).game(docs[0].id)
    after = ActivityClient(URL, clock=lambda: due + timedelta(seconds=1)).game(docs[0].id)
    assert (before.stale, after.stale) == (False, True)


@online
def test_ending_soon_across_games_soonest_first():
    client = ActivityClient(URL, clock=lambda: NOW)
    soon = client.ending_soon(within=timedelta(hours=72))
    until = NOW + timedelta(hours=72)
    games = client.games()
    expected = sorted(
        f"{g['id']}/{a.id}" for g in games for a in client.game(g["id"]).activities if NOW < a.end <= until
    )
    assert sorted(f"{e.game.id}/{e.activity.id}" for e in soon) == expected
    assert len({e.game.id for e in soon}) > 1
    ends = [e.activity.end for e in soon]
    assert ends == sorted(ends)


@offline
def test_the_copy_kept_on_disk_is_returned_marked_from_cache():
    client, seen = recording(lambda: NOW + timedelta(days=2))
    doc = client.game(TOKYO)
    assert seen == []
    assert doc.from_cache is True
    assert doc.activities and ID.match(doc.activities[0].id or "")
    soon = client.ending_soon(within=timedelta(days=30))
    assert soon and all(e.game.from_cache for e in soon)
