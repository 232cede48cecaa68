import { ActivityClient } from "activity-site-client";
// What a user's first script does with the installed TypeScript package, in an
// ES module project (the line above) or a CommonJS one (.ci/e2e-clients.sh
// puts a require in its place): every game of a site of the forms the
// published schemas allow, read with nothing thrown, a game named with one
// string named with it, a document without ids read with null ids.
// Usage: node smoke.mjs|smoke.cjs SITE_URL LABEL
(async () => {
  const [url, label] = process.argv.slice(2);
  // A base that names the API, as users copy it from the address bar.
  const client = new ActivityClient({
    baseUrl: `${url}/api/v1`,
    now: () => new Date("2026-09-20T00:00:00Z"),
  });
  const games = await client.games();
  let oneString = 0;
  let withoutIds = 0;
  for (const entry of games) {
    const doc = await client.game(entry.id);
    if (typeof entry.name === "string") {
      if (doc.name !== entry.name) throw new Error(`${entry.id} is named "${doc.name}", not "${entry.name}"`);
      oneString += 1;
    }
    if (doc.raw.activities.some((a) => a.id === undefined)) {
      if (!doc.activities.some((a) => a.id === null))
        throw new Error(`${entry.id}: an activity without an id has one`);
      withoutIds += 1;
    }
  }
  if (oneString === 0 || withoutIds === 0)
    throw new Error("the site has no game named with one string or no document without ids");
  const soon = await client.endingSoon({ withinHours: 72, locale: "en-US" });
  if (soon.unavailable.length > 0) throw soon.unavailable[0].error;
  console.log(
    `${label}: ${games.length} games read, ${oneString} named with one string (its name shown), ` +
      `${withoutIds} documents without ids; endingSoon: ${soon.length} activities, ${soon.unavailable.length} unavailable`,
  );
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
