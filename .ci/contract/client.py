"""A client of the published API as a Python developer writes one: the
package openapi-python-client generated from api/v1/openapi.json alone
(game_activity_api_client), run against `activity-site serve` (its address is
the first argument). Then the generated models load a document and a board
that carry fields the schemas do not name yet (the second argument: a folder
with added-sr.json and added-anno.json), keeping them.
"""

import json
import sys
from pathlib import Path

from game_activity_api_client import Client
from game_activity_api_client.api.activities import get_activity_document
from game_activity_api_client.api.announcements import get_announcements_board
from game_activity_api_client.api.index import get_games_index
from game_activity_api_client.models import ActivityDocument, AnnouncementsBoard, GamesIndex
from game_activity_api_client.models.get_activity_document_document import GetActivityDocumentDocument

client = Client(base_url=sys.argv[1])

index = get_games_index.sync(client=client)
assert isinstance(index, GamesIndex), index
print(f"index: {len(index.games)} games, first {index.games[0].id} ({len(index.games[0].files)} files)")

name = GetActivityDocumentDocument("sr-en-US")
answer = get_activity_document.sync_detailed(name, client=client)
doc = answer.parsed
assert isinstance(doc, ActivityDocument), answer
print(f"{name}: {doc.version_name} ({doc.version}), {len(doc.activities)} activities in "
      f"{doc.time_zone}, due {doc.due_at.isoformat()}")
for activity in doc.activities[:2]:
    print(f"  {activity.id or '(no id yet)'} {activity.name}: {activity.starts_at} .. {activity.ends_at}")

etag = answer.headers["ETag"]
again = get_activity_document.sync_detailed(name, client=client, if_none_match=etag)
print(f"again with If-None-Match: {int(again.status_code)}")
assert again.status_code == 304

board = get_announcements_board.sync(client=client)
assert isinstance(board, AnnouncementsBoard), board
print(f"announcements: board {board.id}, {len(board.announcements)} announcements")

# Fields added after the client was generated: loaded, kept, and given back.
added = Path(sys.argv[2])
doc = ActivityDocument.from_dict(json.loads((added / "added-sr.json").read_text()))
board = AnnouncementsBoard.from_dict(json.loads((added / "added-anno.json").read_text()))
assert doc.additional_properties["addedLater"] == {"any": ["shape"]}
assert doc.activities[0].additional_properties["addedLater"] == 1
assert board.to_dict()["announcements"][0]["addedLater"] == 1
print("added fields: the generated models load a document and a board with fields added "
      f"at the top and in an item, and keep them ({sorted(doc.additional_properties)})")
