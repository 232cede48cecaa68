"""Keeps calendar.json in step with every game's activities, keyed by the published id: a rename or
a corrected time is an update, not a new event. Usage: python calendar_sync.py https://example.org"""
import json, os, sys
from datetime import datetime
from pathlib import Path
from activity_site_client import ActivityClient

now = os.environ.get("ACTIVITY_SITE_NOW", "")  # a pinned clock, for a demonstration
client = ActivityClient(sys.argv[1], cache_dir=".activity-cache", clock=(lambda: datetime.fromisoformat(now)) if now else None)
store = Path("calendar.json")
old, new = json.loads(store.read_text("utf-8")) if store.exists() else {}, {}
for game in (client.game(g["id"]) for g in client.games()):
    for a in game.activities:
        uid = a.id or f"{game.id}/{a.start_time}/{a.name}"  # a site that publishes no ids yet
        new[uid] = {"title": f"{game.name}: {a.name}", "start": a.start.isoformat(), "end": a.end.isoformat()}
for uid in sorted(new.keys() | old.keys()):  # a real sync calls its calendar's API here
    if old.get(uid) != new.get(uid):
        verb = "add" if uid not in old else "remove" if uid not in new else "update"
        print(verb, uid, (new.get(uid) or old[uid])["title"])
store.write_text(json.dumps(new, ensure_ascii=False, indent=1), "utf-8")
