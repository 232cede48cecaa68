// The client against a served build (`activity-site serve`, or a built site
// behind a static server), run by .ci/e2e-clients.sh. Skipped unless
// ACTIVITY_SITE_URL is set. The environment it reads:
//   ACTIVITY_SITE_URL        the site's address
//   ACTIVITY_SITE_NOW        the instant the client's clock reads (RFC 3339)
//   ACTIVITY_SITE_TOKYO      the id of a game the index puts on Asia/Tokyo
//   ACTIVITY_SITE_CACHE_DIR  the cache folder shared by the two phases
//   ACTIVITY_SITE_OFFLINE=1  the second phase: the server no longer answers
import { describe, expect, it } from "vitest";
import { ActivityClient, naiveToInstant, type GameDocument } from "activity-site-client";

const env = process.env;
const url = env.ACTIVITY_SITE_URL;
const offline = env.ACTIVITY_SITE_OFFLINE === "1";
const NOW = new Date(env.ACTIVITY_SITE_NOW ?? "2026-10-19T00:00:00+08:00");
const TOKYO = env.ACTIVITY_SITE_TOKYO ?? "ba-jp";
const ID = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;
const DAY = 86_400_000;

/** The wall time of an instant in a zone, as YYYY-MM-DDTHH:MM:SS. */
function wallTime(instant: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}`;
}

/** A client whose requests are recorded as [path, status]. */
function recording(now: () => Date) {
  const seen: [string, number][] = [];
  const client = new ActivityClient({
    baseUrl: url!,
    now,
    cacheDir: env.ACTIVITY_SITE_CACHE_DIR,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen.push([new URL(String(input)).pathname, response.status]);
      return response;
    },
  });
  return { client, seen };
}

async function everyDocument(client: ActivityClient): Promise<GameDocument[]> {
  const games = await client.games();
  const docs: GameDocument[] = [];
  for (const game of games) {
    for (const locale of new Set(game.files.map((f) => f.locale))) {
      docs.push(await client.game(game.id, { locale }));
    }
  }
  return docs;
}

describe.runIf(url && !offline)("a served build", () => {
  it("gives every activity an id, the same in every locale of its game", async () => {
    const docs = await everyDocument(new ActivityClient({ baseUrl: url!, now: () => NOW }));
    expect(docs.length).toBeGreaterThan(10);
    let paired = 0;
    for (const doc of docs) {
      const ids = doc.activities.map((a) => a.id);
      for (const id of ids) expect(id, `${doc.id}/${doc.locale}`).toMatch(ID);
      expect(new Set(ids).size, `${doc.id}/${doc.locale} has a repeated id`).toBe(ids.length);
      // An activity with the same times, alone at them in both locales, is the same activity.
      for (const other of docs.filter((d) => d.id === doc.id && d.locale !== doc.locale)) {
        for (const a of doc.activities) {
          const at = (d: GameDocument) =>
            d.activities.filter((b) => b.startTime === a.startTime && b.endTime === a.endTime);
          if (at(doc).length === 1 && at(other).length === 1) {
            expect(at(other)[0].id, `${a.name} in ${other.locale}`).toBe(a.id);
            paired += 1;
          }
        }
      }
    }
    expect(paired).toBeGreaterThan(0);
  });

  it("gives instants equal to the naive time in the game's zone, Tokyo included", async () => {
    const client = new ActivityClient({ baseUrl: url!, now: () => NOW });
    const games = await client.games();
    expect(games.find((g) => g.id === TOKYO)?.timeZone).toBe("Asia/Tokyo");
    for (const entry of games) {
      const doc = await client.game(entry.id);
      expect(doc.timeZone).toBe(entry.timeZone);
      for (const a of doc.activities) {
        expect(wallTime(a.start, doc.timeZone), `${a.id} start`).toBe(a.startTime);
        expect(wallTime(a.end, doc.timeZone), `${a.id} end`).toBe(a.endTime);
        // The site's instant and this client's reading of the naive time agree.
        expect(naiveToInstant(a.endTime, doc.timeZone)).toEqual(a.end);
      }
      if (entry.id === TOKYO) {
        const a = doc.activities[0];
        const [d, t] = a.startTime.split("T");
        expect(a.start.getTime()).toBe(Date.parse(`${d}T${t}Z`) - 9 * 3_600_000);
      }
    }
  });

  it("revalidates the second read with a conditional request answered 304", async () => {
    let now = NOW;
    const { client, seen } = recording(() => now);
    const first = await client.game(TOKYO);
    expect(seen.map(([, status]) => status)).toEqual([200, 200]);
    now = new Date(NOW.getTime() + DAY);
    const second = await client.game(TOKYO);
    expect(seen.slice(2)).toEqual([
      ["/api/v1/games.json", 304],
      [expect.stringMatching(new RegExp(`/${TOKYO}\\.json$`)), 304],
    ]);
    expect(second.activities).toEqual(first.activities);
    expect(second.fromCache).toBe(false);
    // Fills the cache folder the offline phase reads.
    await client.endingSoon({ withinHours: 1 });
  });

  it("says stale from the published due time", async () => {
    const client = new ActivityClient({ baseUrl: url!, now: () => NOW });
    const docs = await everyDocument(client);
    for (const doc of docs) {
      expect(doc.dueAt, `${doc.id}/${doc.locale} has no dueAt`).not.toBeNull();
      expect(doc.stale).toBe(NOW >= doc.dueAt!);
    }
    expect(docs.some((d) => d.stale) && docs.some((d) => !d.stale)).toBe(true);
    const due = docs[0].dueAt!;
    const at = (ms: number) => new ActivityClient({ baseUrl: url!, now: () => new Date(ms) });
    expect((await at(due.getTime() - 1000).game(docs[0].id)).stale).toBe(false);
    expect((await at(due.getTime() + 1000).game(docs[0].id)).stale).toBe(true);
  });

  it("lists what ends within 72 hours across games, soonest first", async () => {
    const client = new ActivityClient({ baseUrl: url!, now: () => NOW });
    const soon = await client.endingSoon({ withinHours: 72 });
    const until = NOW.getTime() + 72 * 3_600_000;
    const expected: string[] = [];
    for (const entry of await client.games()) {
      for (const a of (await client.game(entry.id)).activities) {
        if (a.end > NOW && a.end.getTime() <= until) expected.push(`${entry.id}/${a.id}`);
      }
    }
    expect(soon.map(({ game, activity }) => `${game.id}/${activity.id}`).sort()).toEqual(expected.sort());
    expect(new Set(soon.map(({ game }) => game.id)).size).toBeGreaterThan(1);
    const ends = soon.map(({ activity }) => activity.end.getTime());
    expect(ends).toEqual([...ends].sort((x, y) => x - y));
  });
});

describe.runIf(url && offline)("a served build that stopped answering", () => {
  it("returns the copy kept on disk, marked fromCache", async () => {
    const later = () => new Date(NOW.getTime() + 2 * DAY);
    const { client, seen } = recording(later);
    const doc = await client.game(TOKYO);
    expect(seen).toEqual([]);
    expect(doc.fromCache).toBe(true);
    expect(doc.activities.length).toBeGreaterThan(0);
    expect(doc.activities[0].id).toMatch(ID);
    const soon = await client.endingSoon({ withinHours: 24 * 30 });
    expect(soon.length).toBeGreaterThan(0);
    expect(soon.every(({ game }) => game.fromCache)).toBe(true);
  });
});
