// The client against a hand-made site (clients/fixtures/site) on loopback:
// exact values, the DST corner cases, failures and the cache folder.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ActivityClient, ActivitySiteError, naiveToInstant } from "activity-site-client";
import { FIXTURE_SITE, serveFixture, type FixtureServer } from "./fixture-server.js";

const NOW = new Date("2026-09-20T00:00:00Z");
let site: FixtureServer;
let clock: Date;
const client = (extra: Partial<ConstructorParameters<typeof ActivityClient>[0]> = {}) =>
  new ActivityClient({ baseUrl: site.url, now: () => clock, ...extra });

beforeEach(async () => {
  site = await serveFixture();
  clock = NOW;
});
afterEach(async () => {
  await site.close().catch(() => {});
});

describe("documents", () => {
  it("reads ids, names and instants from the default locale", async () => {
    const doc = await client().game("sr");
    expect(doc).toMatchObject({ id: "sr", name: "崩坏：星穹铁道", locale: "zh-CN", version: "4.5" });
    expect(doc.timeZone).toBe("Asia/Shanghai");
    expect(doc.activities.map((a) => a.id)).toEqual(["sr-4.5-01", "sr-4.5-02"]);
    expect(doc.activities[0].end.toISOString()).toBe("2026-09-21T19:59:59.000Z");
    expect(doc.start.toISOString()).toBe("2026-08-26T03:00:00.000Z");
    expect(doc.fromCache).toBe(false);
    expect(doc.raw.activities[0].startTime).toBe("2026-08-26T11:00:00");
  });

  it("reads the locale asked for, with the same ids", async () => {
    const en = await client().game("sr", { locale: "en-US" });
    expect(en.name).toBe("Honkai: Star Rail");
    expect(en.activities[0]).toMatchObject({ id: "sr-4.5-01", name: "Starlight Stage" });
  });

  it("reads a naive time in the index's zone when the document gives no instant (Tokyo)", async () => {
    const doc = await client().game("ba-jp");
    expect(doc.timeZone).toBe("Asia/Tokyo");
    expect(doc.activities[1].end.toISOString()).toBe("2026-09-21T01:59:59.000Z");
    expect(doc.activities[1].id).toBeNull();
    // No dueAt in the document: the index's is used.
    expect(doc.dueAt?.toISOString()).toBe("2026-09-21T01:59:59.000Z");
    expect(doc.updateMode).toBe("activity");
  });

  it("resolves a DST gap forward and a fold to the earlier offset", async () => {
    const doc = await client().game("dst");
    expect(doc.activities[0].start.toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(doc.activities[1].end.toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(naiveToInstant("2026-11-01T03:00:00", "America/New_York").toISOString()).toBe(
      "2026-11-01T08:00:00.000Z",
    );
  });

  it("says stale once the due time has passed", async () => {
    expect((await client().game("sr")).stale).toBe(false);
    clock = new Date("2026-09-27T22:00:00Z");
    expect((await client().game("sr")).stale).toBe(true);
  });
});

describe("errors", () => {
  it("names the games the index lists for an unknown game", async () => {
    const error = await client()
      .game("zz")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActivitySiteError);
    expect((error as ActivitySiteError).code).toBe("unknown-game");
    expect((error as Error).message).toContain("sr, ba-jp, dst");
  });

  it("names the locales the game has for an unknown locale", async () => {
    const error = await client()
      .game("sr", { locale: "ja-JP" })
      .catch((e: unknown) => e);
    expect((error as ActivitySiteError).code).toBe("unknown-locale");
    expect((error as Error).message).toContain("zh-CN, en-US");
  });

  it("says a listed locale is not published yet, naming those that are", async () => {
    const error = await client()
      .game("dst", { locale: "es-US" })
      .catch((e: unknown) => e);
    expect((error as ActivitySiteError).code).toBe("unknown-locale");
    expect((error as Error).message).toContain("pending");
    expect((error as Error).message).toMatch(/it has: en-US$/);
  });

  it("refuses a body larger than the bound", async () => {
    const error = await client({ maxBodyBytes: 1000 })
      .game("sr")
      .catch((e: unknown) => e);
    expect((error as ActivitySiteError).code).toBe("too-large");
  });

  it("throws when nothing is kept and the server fails", async () => {
    site.failing = true;
    const error = await client()
      .game("sr")
      .catch((e: unknown) => e);
    expect((error as ActivitySiteError).code).toBe("http");
  });
});

describe("caching", () => {
  it("uses the copy within max-age, then revalidates and keeps the body on a 304", async () => {
    const c = client();
    await c.game("sr");
    await c.game("sr");
    expect(site.hits.map((h) => h.status)).toEqual([200, 200]);
    clock = new Date(NOW.getTime() + 301_000);
    const again = await c.game("sr");
    expect(site.hits.slice(2).map((h) => [h.path, h.status])).toEqual([
      ["/api/v1/games.json", 304],
      ["/api/v1/activity/sr.json", 304],
    ]);
    expect(site.hits[3].ifNoneMatch).toMatch(/^"[0-9a-f]+"$/);
    expect(site.hits[3].ifModifiedSince).toBe("Fri, 27 Nov 2026 12:00:00 GMT");
    expect(again.activities[0].id).toBe("sr-4.5-01");
    expect(again.fromCache).toBe(false);
  });

  it("returns the kept copy marked fromCache on a 5xx and when the server is gone", async () => {
    const c = client();
    const first = await c.game("sr");
    clock = new Date(NOW.getTime() + 301_000);
    site.failing = true;
    const failed = await c.game("sr");
    expect(failed.fromCache).toBe(true);
    expect(failed.activities).toEqual(first.activities);
    // Within the retry delay the kept copy is returned without asking again.
    const asked = site.hits.length;
    clock = new Date(NOW.getTime() + 400_000);
    expect((await c.game("sr")).fromCache).toBe(true);
    expect(site.hits.length).toBe(asked);
    await site.close();
    clock = new Date(NOW.getTime() + 602_000);
    expect((await c.game("sr")).fromCache).toBe(true);
  });

  it("returns the kept copy when the server does not answer in time", async () => {
    const c = client({ timeoutMs: 300 });
    await c.game("sr");
    clock = new Date(NOW.getTime() + 301_000);
    site.hanging = true;
    const late = await c.game("sr");
    expect(late.fromCache).toBe(true);
    expect(late.activities[0].id).toBe("sr-4.5-01");
  });

  it("makes one request for concurrent reads of one file", async () => {
    const c = client();
    await Promise.all([c.game("sr"), c.game("sr", { locale: "en-US" }), c.game("dst")]);
    expect(site.hits.filter((h) => h.path === "/api/v1/games.json")).toHaveLength(1);
  });

  it("keeps the last good copy on disk for the next run", async () => {
    const dir = await mkdtemp(join(tmpdir(), "activity-site-client-"));
    try {
      await client({ cacheDir: dir }).game("ba-jp");
      expect((await readdir(dir)).length).toBe(2);
      await site.close();
      const later = await client({ cacheDir: dir, now: () => new Date(NOW.getTime() + 3_600_000) }).game(
        "ba-jp",
      );
      expect(later.fromCache).toBe(true);
      expect(later.activities[1].name).toBe("总力战");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("endingSoon", () => {
  it("lists what ends within the hours given across every game, soonest first", async () => {
    const soon = await client().endingSoon({ withinHours: 72 });
    expect(soon.map(({ game, activity }) => [game.id, activity.name])).toEqual([
      ["ba-jp", "总力战"],
      ["sr", "星芒战幕"],
      ["dst", "Starts in the spring gap"],
    ]);
  });
});

describe("endingSoon in a locale", () => {
  it("reads each game in the locale asked for where it has a document, else its default, and says which", async () => {
    const soon = await client().endingSoon({ withinHours: 72, locale: "en-US" });
    expect(
      soon.map(({ game, activity, fallback }) => [game.id, game.locale, fallback, activity.name]),
    ).toEqual([
      ["ba-jp", "zh-CN", true, "总力战"],
      ["sr", "en-US", false, "Starlight Stage"],
      ["dst", "en-US", false, "Starts in the spring gap"],
    ]);
    expect(soon[1].game.name).toBe("Honkai: Star Rail");
  });
});

/** A site of 11 games in a new folder, each a copy of the hand-made site's sr. */
async function elevenGames(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "activity-site-eleven-"));
  const index = JSON.parse(await readFile(join(FIXTURE_SITE, "api/v1/games.json"), "utf8"));
  const sr = index.games.find((g: { id: string }) => g.id === "sr");
  const doc = await readFile(join(FIXTURE_SITE, "api/v1/activity/sr.json"));
  await mkdir(join(dir, "api/v1/activity"), { recursive: true });
  const games = [];
  for (let n = 0; n < 11; n++) {
    const path = `/api/v1/activity/g${n}.json`;
    games.push({ ...sr, id: `g${n}`, files: [{ ...sr.files[0], path }] });
    await writeFile(join(dir, path), doc);
  }
  await writeFile(join(dir, "api/v1/games.json"), JSON.stringify({ games }));
  return `${dir}/`;
}

describe("a hung server", () => {
  it("costs endingSoon one timeout, and the kept copies come back marked", async () => {
    const dir = await elevenGames();
    const hung = await serveFixture(dir);
    try {
      // The copies are kept by a first run with the default timeout.
      const cacheDir = join(dir, "cache");
      const first = new ActivityClient({ baseUrl: hung.url, now: () => NOW, cacheDir });
      expect(new Set((await first.endingSoon({ withinHours: 72 })).map((e) => e.game.id)).size).toBe(11);
      const later = new Date(NOW.getTime() + 301_000);
      const c = new ActivityClient({ baseUrl: hung.url, now: () => later, timeoutMs: 1000, cacheDir });
      hung.hanging = true;
      const started = performance.now();
      const soon = await c.endingSoon({ withinHours: 72 });
      console.log(
        `endingSoon over 11 games, hung server, timeoutMs 1000: ${((performance.now() - started) / 1000).toFixed(2)} s`,
      );
      expect(new Set(soon.map((e) => e.game.id))).toEqual(
        new Set(Array.from({ length: 11 }, (_, n) => `g${n}`)),
      );
      expect(soon.every((e) => e.game.fromCache)).toBe(true);
      expect(soon.unavailable).toEqual([]);
      // One request waited out the call's time; none was made for the games after it.
      expect(hung.hung).toEqual(["/api/v1/games.json"]);
      const error = await new ActivityClient({ baseUrl: hung.url, timeoutMs: 500 })
        .endingSoon({ withinHours: 72 })
        .catch((e: unknown) => e);
      expect((error as ActivitySiteError).code).toBe("network");
    } finally {
      await hung.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("base URLs and arguments as users write them", () => {
  it("takes a base naming the API as the site", async () => {
    for (const base of [`${site.url}/api/v1`, `${site.url}/api/v1/`, `${site.url}/api/v1/activity`]) {
      expect((await client({ baseUrl: base }).game("sr")).id).toBe("sr");
    }
  });

  it("refuses a base without a scheme when the client is made, saying what to write", () => {
    expect(() => new ActivityClient({ baseUrl: "example.org/sub" })).toThrow(
      'write the scheme too, such as "https://example.org/sub"',
    );
    expect(() => new ActivityClient({ baseUrl: "localhost:8080" })).toThrow("https://localhost:8080");
  });

  it("names the expected type for a wrong withinHours", async () => {
    const error = await client()
      .endingSoon({ withinHours: "48" as unknown as number })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(
      'withinHours must be a number of hours, such as { withinHours: 72 }; got string "48"',
    );
  });
});
