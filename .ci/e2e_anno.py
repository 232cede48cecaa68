"""End-to-end check of the announcements a build published (run by .ci/e2e-anno.sh).

Every board of data/_announcements/ must be published as JSON equal to its
source, with an Atom feed that feedparser reads without complaint (one entry
per announcement, in order, with its title) and a page that html5lib parses
without error; no script, event handler, frame or javascript: URL may reach
either.
"""

import argparse
import json
import pathlib
import sys

import feedparser
import html5lib

FAILURES = []


def fail(message):
    FAILURES.append(message)
    print(f"FAIL: {message}", file=sys.stderr)


def unsafe_in(tree_root):
    """What a browser would run or load in an HTML tree: script, frames, on* handlers, javascript: URLs."""
    found = []
    for element in tree_root.iter():
        tag = element.tag.split("}")[-1] if isinstance(element.tag, str) else ""
        if tag in ("script", "iframe", "object", "embed"):
            found.append(f"<{tag}>")
        for name, value in element.attrib.items():
            if name.lower().startswith("on"):
                found.append(f"{tag} {name}=")
            if "javascript:" in value.lower().replace(" ", ""):
                found.append(f"{tag} {name}={value}")
    return found


def check_html(label, html, page=False):
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
    tree = parser.parse(html) if page else parser.parseFragment(html)
    if page and parser.errors:
        fail(f"{label}: HTML parse errors {parser.errors[:3]}")
    for thing in unsafe_in(tree):
        fail(f"{label}: {thing} reached it")
    return tree


def main():
    args = argparse.ArgumentParser()
    args.add_argument("--root", required=True)
    args.add_argument("--site", required=True)
    args = args.parse_args()
    root = pathlib.Path(args.root)
    site = pathlib.Path(args.site)
    index = json.loads((site / "api/v1/games.json").read_text("utf-8"))
    published = {e["locale"]: e for e in index.get("announcements", []) if not e["default"]}
    default = [e for e in index.get("announcements", []) if e["default"]]
    if len(default) != 1 or default[0]["path"] != "/api/v1/anno.json":
        fail(f"the index names no single default board: {default}")
    boards = sorted((root / "data/_announcements").glob("*.json"))
    if len(boards) < 3:
        fail(f"expected three boards, found {boards}")
    for board in boards:
        locale = board.stem
        source = json.loads(board.read_text("utf-8"))
        entry = published.get(locale)
        if entry is None:
            fail(f"{locale}: not in the index")
            continue
        doc = json.loads((site / entry["path"].lstrip("/")).read_text("utf-8"))
        if doc != source:
            fail(f"{locale}: {entry['path']} differs from {board}")
        if entry["id"] != source["id"]:
            fail(f"{locale}: the index says id {entry['id']}, the board {source['id']}")
        titles = [a["title"] for a in source["announcements"]]

        feed_path = site / entry["feed"].lstrip("/")
        feed = feedparser.parse(feed_path.read_bytes())
        if feed.bozo:
            fail(f"{locale}: feedparser rejects {feed_path}: {feed.bozo_exception}")
        if feed.version != "atom10":
            fail(f"{locale}: {feed_path} is {feed.version!r}, not Atom 1.0")
        got = [e.title for e in feed.entries]
        if got != titles:
            fail(f"{locale}: feed titles {got} != board titles {titles}")
        for e in feed.entries:
            if not e.get("id") or not e.get("updated_parsed") or not e.get("link"):
                fail(f"{locale}: entry {e.title!r} lacks id, updated or link")
            html = e.content[0].value if e.get("content") else ""
            check_html(f"{locale} feed entry {e.title!r}", html)
        # feedparser sanitises on its own: check the raw content too.
        raw = feed_path.read_text("utf-8")
        marker = '<content type="html">'
        start = raw.find(marker)
        while start >= 0:
            end = raw.find("</content>", start)
            escaped = raw[start + len(marker):end]
            unescaped = (escaped.replace("&lt;", "<").replace("&gt;", ">")
                         .replace("&quot;", '"').replace("&amp;", "&"))
            check_html(f"{locale} raw feed content", unescaped)
            start = raw.find(marker, end)

        page_dir = "announcements/" if entry["locale"] == default[0]["locale"] else f"announcements/{locale}/"
        page_path = site / page_dir / "index.html"
        text = page_path.read_text("utf-8")
        tree = check_html(f"{locale} page {page_path}", text, page=True)
        body = "".join(tree.itertext())
        for title in titles:
            if title not in body:
                fail(f"{locale}: {page_path} does not show {title!r}")
        print(f"ok: {locale}: JSON equal, {len(feed.entries)} feed entries, page with {len(titles)} announcements")

    home = (site / "index.html").read_text("utf-8")
    if 'href="announcements/"' not in home:
        fail("the home page does not link to announcements/")
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print("ok: announcements e2e passed")


if __name__ == "__main__":
    main()
