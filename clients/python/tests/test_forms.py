"""Every form the published schemas allow, read by the installed client: a
site of one game per form (clients/fixtures/forms.py walks the schemas'
branches to make it; ACTIVITY_SITE_FORMS names one made already, as
.ci/e2e-clients.sh does from a build's schemas). Nothing raises, a game named
with one string is named with it, and every form of the one document gives
the same activities at the same instants."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from activity_site_client import ActivityClient

from fixture_server import FixtureServer

FORMS_PY = Path(__file__).resolve().parent.parent.parent / "fixtures" / "forms.py"
NOW = datetime(2026, 9, 20, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def forms(tmp_path_factory):
    root = Path(os.environ.get("ACTIVITY_SITE_FORMS") or tmp_path_factory.mktemp("forms"))
    if not (root / "forms.json").is_file():
        subprocess.run([sys.executable, str(FORMS_PY), str(root)], check=True)
    server = FixtureServer(root)
    index = json.loads((root / "api/v1/games.json").read_text("utf-8"))
    labels = {f["game"]: f["form"] for f in json.loads((root / "forms.json").read_text("utf-8"))}
    yield server, index["games"], labels
    server.close()


def test_every_form_reads_and_names_the_game_as_the_index_does(forms):
    server, games, labels = forms
    client = ActivityClient(server.url, clock=lambda: NOW)
    base = client.game("doc-0")
    assert len(games) == len(labels) > 10
    for entry in games:
        form = labels[entry["id"]]
        doc = client.game(entry["id"])
        name = entry.get("name")
        if isinstance(name, str):
            assert doc.name == name, form
        elif isinstance(name, dict):
            assert doc.name == name[doc.locale], form
        else:
            assert doc.name == entry["id"], form
        assert [(a.start, a.end, a.name) for a in doc.activities] == [
            (a.start, a.end, a.name) for a in base.activities
        ], form
        assert (doc.start, doc.end) == (base.start, base.end), form
        for got, published in zip(doc.activities, doc.raw["activities"]):
            assert got.id == published.get("id"), form
            assert got.kind == published.get("kind", ""), form
        due = doc.raw.get("dueAt") or next((f.get("dueAt") for f in entry["files"]), None)
        assert (doc.due_at is None) == (due is None), form


def test_ending_soon_over_every_form_lists_each_game(forms):
    server, games, labels = forms
    soon = ActivityClient(server.url, clock=lambda: NOW).ending_soon(within=timedelta(hours=72))
    assert soon.unavailable == []
    assert {e.game.id for e in soon} == set(labels)
    assert all(e.fallback is False for e in soon)
    english = ActivityClient(server.url, clock=lambda: NOW).ending_soon(within=timedelta(hours=72), locale="en-US")
    assert english.unavailable == []
    assert {e.game.id for e in english} == set(labels)
