"""The client against a hand-made site (clients/fixtures/site) on loopback:
exact values, the DST corner cases, failures and the cache folder."""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta, timezone

import pytest

from activity_site_client import ActivityClient, ActivitySiteError, naive_to_instant

from fixture_server import FIXTURE_SITE, FixtureServer

NOW = datetime(2026, 9, 20, tzinfo=timezone.utc)
UTC = timezone.utc


@pytest.fixture
def site():
    server = FixtureServer()
    yield server
    server.close()


def client(site, now=NOW, **options):
    return ActivityClient(site.url, clock=lambda: now, **options)


def test_reads_ids_names_and_instants_from_the_default_locale(site):
    doc = client(site).game("sr")
    assert (doc.id, doc.name, doc.locale, doc.version) == ("sr", "崩坏：星穹铁道", "zh-CN", "4.5")
    assert doc.time_zone == "Asia/Shanghai"
    assert [a.id for a in doc.activities] == ["sr-4.5-01", "sr-4.5-02"]
    assert doc.activities[0].end == datetime(2026, 9, 21, 19, 59, 59, tzinfo=UTC)
    assert doc.activities[0].end.utcoffset() == timedelta(hours=8)
    assert doc.start == datetime(2026, 8, 26, 3, tzinfo=UTC)
    assert doc.from_cache is False
    assert doc.raw["activities"][0]["startTime"] == "2026-08-26T11:00:00"


def test_reads_the_locale_asked_for_with_the_same_ids(site):
    en = client(site).game("sr", locale="en-US")
    assert en.name == "Honkai: Star Rail"
    assert (en.activities[0].id, en.activities[0].name) == ("sr-4.5-01", "Starlight Stage")


def test_reads_a_naive_time_in_the_index_zone_without_instants_tokyo(site):
    doc = client(site).game("ba-jp")
    assert doc.time_zone == "Asia/Tokyo"
    assert doc.activities[1].end == datetime(2026, 9, 21, 1, 59, 59, tzinfo=UTC)
    assert doc.activities[1].id is None
    # No dueAt in the document: the index's is used.
    assert doc.due_at == datetime(2026, 9, 21, 1, 59, 59, tzinfo=UTC)
    assert doc.update_mode == "activity"


def test_resolves_a_dst_gap_forward_and_a_fold_to_the_earlier_offset(site):
    doc = client(site).game("dst")
    assert doc.activities[0].start == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)
    assert doc.activities[1].end == datetime(2026, 11, 1, 5, 30, tzinfo=UTC)
    assert naive_to_instant("2026-11-01T03:00:00", "America/New_York") == datetime(2026, 11, 1, 8, tzinfo=UTC)


def test_says_stale_once_the_due_time_has_passed(site):
    assert client(site).game("sr").stale is False
    assert client(site, now=datetime(2026, 9, 27, 22, tzinfo=UTC)).game("sr").stale is True


def test_names_the_listed_games_for_an_unknown_game(site):
    with pytest.raises(ActivitySiteError, match="sr, ba-jp, dst") as error:
        client(site).game("zz")
    assert error.value.code == "unknown-game"


def test_names_the_locales_for_an_unknown_locale(site):
    with pytest.raises(ActivitySiteError, match="zh-CN, en-US") as error:
        client(site).game("sr", locale="ja-JP")
    assert error.value.code == "unknown-locale"


def test_says_a_listed_locale_is_not_published_yet_naming_those_that_are(site):
    with pytest.raises(ActivitySiteError, match=r"pending.*it has: en-US$") as error:
        client(site).game("dst", locale="es-US")
    assert error.value.code == "unknown-locale"


def test_refuses_a_body_larger_than_the_bound(site):
    with pytest.raises(ActivitySiteError) as error:
        client(site, max_body_bytes=1000).game("sr")
    assert error.value.code == "too-large"


def test_raises_when_nothing_is_kept_and_the_server_fails(site):
    site.failing = True
    with pytest.raises(ActivitySiteError) as error:
        client(site).game("sr")
    assert error.value.code == "http"


def test_uses_the_copy_within_max_age_then_revalidates_and_keeps_the_body_on_304(site):
    clock = [NOW]
    c = ActivityClient(site.url, clock=lambda: clock[0])
    c.game("sr")
    c.game("sr")
    assert [h.status for h in site.hits] == [200, 200]
    clock[0] = NOW + timedelta(seconds=301)
    again = c.game("sr")
    assert [(h.path, h.status) for h in site.hits[2:]] == [
        ("/api/v1/games.json", 304),
        ("/api/v1/activity/sr.json", 304),
    ]
    assert site.hits[3].if_none_match.startswith('"')
    assert site.hits[3].if_modified_since == "Fri, 27 Nov 2026 12:00:00 GMT"
    assert again.activities[0].id == "sr-4.5-01"
    assert again.from_cache is False


def test_returns_the_kept_copy_marked_from_cache_on_5xx_and_when_the_server_is_gone(site):
    clock = [NOW]
    c = ActivityClient(site.url, clock=lambda: clock[0])
    first = c.game("sr")
    clock[0] = NOW + timedelta(seconds=301)
    site.failing = True
    failed = c.game("sr")
    assert failed.from_cache is True
    assert failed.activities == first.activities
    # Within the retry delay the kept copy is returned without asking again.
    asked = len(site.hits)
    clock[0] = NOW + timedelta(seconds=400)
    assert c.game("sr").from_cache is True
    assert len(site.hits) == asked
    site.close()
    clock[0] = NOW + timedelta(seconds=602)
    assert c.game("sr").from_cache is True


def test_returns_the_kept_copy_when_the_server_does_not_answer_in_time(site):
    clock = [NOW]
    c = ActivityClient(site.url, clock=lambda: clock[0], timeout=0.3)
    c.game("sr")
    clock[0] = NOW + timedelta(seconds=301)
    site.hanging = True
    late = c.game("sr")
    assert late.from_cache is True
    assert late.activities[0].id == "sr-4.5-01"


def test_keeps_the_last_good_copy_on_disk_for_the_next_run(site, tmp_path):
    client(site, cache_dir=tmp_path).game("ba-jp")
    assert len(list(tmp_path.iterdir())) == 2
    site.close()
    later = client(site, now=NOW + timedelta(hours=1), cache_dir=tmp_path).game("ba-jp")
    assert later.from_cache is True
    assert later.activities[1].name == "总力战"


def test_ending_soon_lists_what_ends_within_across_every_game_soonest_first(site):
    soon = client(site).ending_soon(within=timedelta(hours=72))
    assert [(e.game.id, e.activity.name) for e in soon] == [
        ("ba-jp", "总力战"),
        ("sr", "星芒战幕"),
        ("dst", "Starts in the spring gap"),
    ]


def test_ending_soon_reads_each_game_in_the_locale_asked_for_else_its_default(site):
    soon = client(site).ending_soon(within=timedelta(hours=72), locale="en-US")
    assert [(e.game.id, e.game.locale, e.fallback, e.activity.name) for e in soon] == [
        ("ba-jp", "zh-CN", True, "总力战"),
        ("sr", "en-US", False, "Starlight Stage"),
        ("dst", "en-US", False, "Starts in the spring gap"),
    ]
    assert soon[1].game.name == "Honkai: Star Rail"


def eleven_games(site_dir):
    """A site of 11 games, each a copy of the hand-made site's sr."""
    (site_dir / "api/v1").mkdir(parents=True)
    source = FIXTURE_SITE / "api/v1"
    index = json.loads((source / "games.json").read_text("utf-8"))
    sr = next(g for g in index["games"] if g["id"] == "sr")
    games = []
    for n in range(11):
        path = f"/api/v1/activity/g{n}.json"
        games.append({**sr, "id": f"g{n}", "files": [{**sr["files"][0], "path": path}]})
        (site_dir / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (site_dir / path.lstrip("/")).write_bytes((source / "activity/sr.json").read_bytes())
    (site_dir / "api/v1/games.json").write_text(json.dumps({"games": games}), "utf-8")


def test_ending_soon_against_a_hung_server_costs_one_timeout_and_returns_the_kept_copies(tmp_path):
    eleven_games(tmp_path / "site")
    server = FixtureServer(tmp_path / "site")
    try:
        # The copies are kept on disk by a first run with the default timeout.
        first = ActivityClient(server.url, clock=lambda: NOW, cache_dir=tmp_path / "cache")
        assert len({e.game.id for e in first.ending_soon(within=timedelta(hours=72))}) == 11
        later = NOW + timedelta(seconds=301)
        c = ActivityClient(server.url, clock=lambda: later, timeout=1.0, cache_dir=tmp_path / "cache")
        server.hanging = True
        started = time.monotonic()
        soon = c.ending_soon(within=timedelta(hours=72))
        print(f"ending_soon over 11 games, hung server, timeout 1 s: {time.monotonic() - started:.2f} s")
        assert {e.game.id for e in soon} == {f"g{n}" for n in range(11)}
        assert all(e.game.from_cache for e in soon) and soon.unavailable == []
        # One request waited out the call's time; none was made for the games after it.
        assert server.hung == ["/api/v1/games.json"]
        with pytest.raises(ActivitySiteError) as error:
            ActivityClient(server.url, clock=lambda: NOW, timeout=0.5).ending_soon()
        assert error.value.code == "network"
    finally:
        server.close()


def test_a_base_naming_the_api_is_the_site(site):
    for base in (site.url + "/api/v1", site.url + "/api/v1/", site.url + "/api/v1/activity"):
        assert ActivityClient(base, clock=lambda: NOW).game("sr").id == "sr"


def test_a_base_without_a_scheme_is_refused_when_the_client_is_made():
    with pytest.raises(ValueError, match='write the scheme too, such as "https://example.org/sub"'):
        ActivityClient("example.org/sub")
    with pytest.raises(ValueError, match="https://localhost:8080"):
        ActivityClient("localhost:8080")


def test_a_wrong_type_for_within_names_the_expected_type(site):
    with pytest.raises(TypeError, match=r"within must be a datetime\.timedelta.*got int 48"):
        client(site).ending_soon(within=48)
