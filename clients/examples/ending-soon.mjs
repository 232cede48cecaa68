// A Discord-style reminder: what ends within 3 days across every game, posted to the webhook in
// DISCORD_WEBHOOK_URL (or printed). Usage: node ending-soon.mjs https://example.org
import { ActivityClient } from "activity-site-client";

const pinned = process.env.ACTIVITY_SITE_NOW; // a pinned clock, for a demonstration
const now = pinned ? () => new Date(pinned) : undefined;
const client = new ActivityClient({ baseUrl: process.argv[2], cacheDir: ".activity-cache", now });
// Each game in ACTIVITY_LOCALE (en-US, ...) where it has a document, else in its default locale.
const lines = (await client.endingSoon({ withinHours: 72, locale: process.env.ACTIVITY_LOCALE })).map(
  ({ game, activity }) => `**${game.name}** ${activity.name}: ends <t:${activity.end.getTime() / 1000}:R>`,
);
const content = lines.length ? `Ending within 3 days:\n${lines.join("\n")}` : "Nothing ends within 3 days.";
if (process.env.DISCORD_WEBHOOK_URL) {
  const body = JSON.stringify({ content: content.slice(0, 2000) });
  await fetch(process.env.DISCORD_WEBHOOK_URL, { method: "POST", headers: { "content-type": "application/json" }, body });
} else {
  console.log(content);
}
