// Every form the published schemas allow, read by the client: a site of one
// game per form (clients/fixtures/forms.py walks the schemas' branches to make
// it; ACTIVITY_SITE_FORMS names one made already, as .ci/e2e-clients.sh does
// from a build's schemas). Nothing throws, a game named with one string is
// named with it, and every form of the one document gives the same activities
// at the same instants.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityClient, type GameEntry } from "activity-site-client";
import { serveFixture, type FixtureServer } from "./fixture-server.js";

const FORMS_PY = fileURLToPath(new URL("../../fixtures/forms.py", import.meta.url));
const NOW = new Date("2026-09-20T00:00:00Z");
let site: FixtureServer;
let games: GameEntry[];
let labels: Map<string, string>;
let made: string | undefined;

beforeAll(async () => {
  let root = process.env.ACTIVITY_SITE_FORMS;
  if (!root || !existsSync(join(root, "forms.json"))) {
    made = mkdtempSync(join(tmpdir(), "activity-site-forms-"));
    execFileSync(process.env.PYTHON ?? "python3", [FORMS_PY, made], { stdio: "inherit" });
    root = made;
  }
  games = JSON.parse(readFileSync(join(root, "api/v1/games.json"), "utf8")).games;
  const listed: { game: string; form: string }[] = JSON.parse(readFileSync(join(root, "forms.json"), "utf8"));
  labels = new Map(listed.map((f) => [f.game, f.form]));
  site = await serveFixture(root.endsWith("/") ? root : `${root}/`);
});
afterAll(async () => {
  await site?.close();
  if (made) rmSync(made, { recursive: true, force: true });
});

const times = (doc: { activities: { start: Date; end: Date; name: string }[] }) =>
  doc.activities.map((a) => [a.start.toISOString(), a.end.toISOString(), a.name]);

describe("every form the published schemas allow", () => {
  it("reads each, naming the game as the index does", async () => {
    const client = new ActivityClient({ baseUrl: site.url, now: () => NOW });
    const base = await client.game("doc-0");
    expect(games.length).toBe(labels.size);
    expect(games.length).toBeGreaterThan(10);
    for (const entry of games) {
      const form = labels.get(entry.id);
      const doc = await client.game(entry.id);
      const name = entry.name;
      const expected = typeof name === "string" ? name : name ? name[doc.locale] : entry.id;
      expect(doc.name, form).toBe(expected);
      expect(times(doc), form).toEqual(times(base));
      expect([doc.start, doc.end], form).toEqual([base.start, base.end]);
      doc.activities.forEach((a, i) => {
        const published = doc.raw.activities[i] as { id?: string; kind?: string };
        expect(a.id, form).toBe(published.id ?? null);
        expect(a.kind, form).toBe(published.kind ?? "");
      });
      const due = (doc.raw as { dueAt?: string }).dueAt ?? entry.files.find((f) => f.dueAt)?.dueAt;
      expect(doc.dueAt === null, form).toBe(due === undefined);
    }
  });

  it("lists each in endingSoon, none unavailable", async () => {
    const soon = await new ActivityClient({ baseUrl: site.url, now: () => NOW }).endingSoon({
      withinHours: 72,
    });
    expect(soon.unavailable).toEqual([]);
    expect(new Set(soon.map((e) => e.game.id))).toEqual(new Set(labels.keys()));
    expect(soon.every((e) => e.fallback === false)).toBe(true);
    const english = await new ActivityClient({ baseUrl: site.url, now: () => NOW }).endingSoon({
      withinHours: 72,
      locale: "en-US",
    });
    expect(english.unavailable).toEqual([]);
    expect(new Set(english.map((e) => e.game.id))).toEqual(new Set(labels.keys()));
  });
});
