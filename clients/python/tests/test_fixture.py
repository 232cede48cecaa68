"""The client against a hand-made site (clients/fixtures/site) on loopback:
exact values, the DST corner cases, failures and the cache folder."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from activity_site_client import ActivityClient, ActivitySiteError, naive_to_instant

from fixture_server import FixtureServer

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
