from __future__ import annotations


class ActivitySiteError(Exception):
    """What went wrong; `code` tells the cases apart:

    - ``unknown-game``: the index does not list the game asked for;
    - ``unknown-locale``: the game has no document in the locale asked for;
    - ``network``: the network failed and no copy is kept;
    - ``http``: the server answered an error (a 4xx, or a 5xx with no copy kept);
    - ``too-large``: the body is larger than ``max_body_bytes``;
    - ``invalid``: the body is not the document the site publishes.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
