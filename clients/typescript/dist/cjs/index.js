"use strict";
// activity-site-client: the published API of an activity-site build, read
// the way every client needs it: activities by id, times as instants on the
// game's clock, due times, HTTP caching and the last good copy.
Object.defineProperty(exports, "__esModule", { value: true });
exports.ActivityClient = exports.parseInstant = exports.naiveToInstant = exports.ActivitySiteError = void 0;
const errors_js_1 = require("./errors.js");
const http_js_1 = require("./http.js");
const time_js_1 = require("./time.js");
var errors_js_2 = require("./errors.js");
Object.defineProperty(exports, "ActivitySiteError", { enumerable: true, get: function () { return errors_js_2.ActivitySiteError; } });
var time_js_2 = require("./time.js");
Object.defineProperty(exports, "naiveToInstant", { enumerable: true, get: function () { return time_js_2.naiveToInstant; } });
Object.defineProperty(exports, "parseInstant", { enumerable: true, get: function () { return time_js_2.parseInstant; } });
/** The path of the index every game is listed in, under the site's address. */
const INDEX_PATH = "/api/v1/games.json";
/** The zone of a game whose index entry and document name none (the registry's default). */
const DEFAULT_TIME_ZONE = "Asia/Shanghai";
class ActivityClient {
    base;
    http;
    now;
    timeoutMs;
    constructor(options) {
        this.base = siteRoot(options?.baseUrl);
        this.now = options.now ?? (() => new Date());
        this.timeoutMs = options.timeoutMs ?? 10_000;
        this.http = new http_js_1.Http({
            fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
            now: this.now,
            maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
            timeoutMs: this.timeoutMs,
            retryAfterMs: options.retryAfterMs ?? 300_000,
            cacheDir: options.cacheDir,
        });
    }
    /** The games the index lists, as published (`id`, `name`, `locales`, `timeZone`, ...). */
    async games() {
        return (await this.index()).games;
    }
    /** The games the index lists, and whether the index came from the kept copy. */
    async index(deadline) {
        const { body, fromCache } = await this.http.get(this.base + INDEX_PATH, deadline);
        const index = parse(body, INDEX_PATH);
        if (!Array.isArray(index?.games)) {
            throw new errors_js_1.ActivitySiteError("invalid", `${INDEX_PATH} has no games list`);
        }
        return { games: index.games, fromCache };
    }
    /** A game's document, in its default locale unless `locale` is given. */
    async game(id, options = {}) {
        const index = await this.index();
        const game = index.games.find((g) => g.id === id);
        if (!game) {
            const known = index.games.map((g) => g.id).join(", ");
            throw new errors_js_1.ActivitySiteError("unknown-game", `the site lists no game "${id}"; it lists: ${known}`);
        }
        return this.read(index, game, options.locale);
    }
    /** The document of a game the index lists, in `locale` or the game's default. */
    async read(index, game, locale, deadline) {
        const wanted = locale ?? defaultLocale(game);
        const file = game.files.find((f) => f.locale === wanted && (locale === undefined ? f.default : true)) ??
            game.files.find((f) => f.locale === wanted);
        if (!file) {
            const published = [...new Set(game.files.map((f) => f.locale))].join(", ");
            const why = game.pending?.includes(wanted) ? " yet (it is listed as pending)" : "";
            throw new errors_js_1.ActivitySiteError("unknown-locale", `game "${game.id}" has no document in locale "${wanted}"${why}; it has: ${published}`);
        }
        const fetched = await this.http.get(this.base + file.path, deadline);
        const raw = parse(fetched.body, file.path);
        return this.document(game, file, wanted, raw, fetched.fromCache || index.fromCache);
    }
    /**
     * The activities of every game that end within the hours given from now,
     * soonest first: each game's document in `locale` where it has one, else in
     * its default locale (`fallback` says which). The call takes about one
     * timeout at most: its requests run together under one deadline, and a game
     * the site does not answer for in time gives its kept copy (`fromCache`), or
     * is listed in `unavailable`.
     */
    async endingSoon(options) {
        const { withinHours, locale } = (options ?? {});
        if (typeof withinHours !== "number" || Number.isNaN(withinHours)) {
            throw new TypeError(`endingSoon: withinHours must be a number of hours, such as { withinHours: 72 }; got ${show(withinHours)}`);
        }
        if (locale !== undefined && typeof locale !== "string") {
            throw new TypeError(`endingSoon: locale must be a string such as "en-US"; got ${show(locale)}`);
        }
        const deadline = Date.now() + this.timeoutMs;
        const now = this.now().getTime();
        const until = now + withinHours * 3_600_000;
        const index = await this.index(deadline);
        const unavailable = [];
        const read = async (entry) => {
            const inLocale = locale !== undefined && entry.files.some((f) => f.locale === locale);
            try {
                const game = await this.read(index, entry, inLocale ? locale : undefined, deadline);
                const fallback = locale !== undefined && !inLocale;
                return game.activities
                    .filter((activity) => activity.end.getTime() > now && activity.end.getTime() <= until)
                    .map((activity) => ({ game, activity, fallback }));
            }
            catch (error) {
                unavailable.push({ game: entry.id, error: asSiteError(error, entry.id) });
                return [];
            }
        };
        // In the index's order whatever order the answers come in, so that equal ends keep it.
        const found = (await Promise.all(index.games.map(read))).flat();
        found.sort((a, b) => a.activity.end.getTime() - b.activity.end.getTime());
        return Object.assign(found, { unavailable });
    }
    document(game, file, locale, raw, fromCache) {
        const zone = raw.timeZone ?? game.timeZone ?? DEFAULT_TIME_ZONE;
        const instant = (withOffset, naive) => withOffset ? (0, time_js_1.parseInstant)(withOffset) : (0, time_js_1.naiveToInstant)(naive, zone);
        const due = raw.dueAt ?? file.dueAt;
        const dueAt = due ? (0, time_js_1.parseInstant)(due) : null;
        return {
            id: game.id,
            name: gameName(game, locale),
            locale,
            timeZone: zone,
            version: raw.version,
            versionName: raw.versionName,
            start: instant(raw.startsAt, raw.startTime),
            end: instant(raw.endsAt, raw.endTime),
            cover: raw.cover ?? "",
            activities: raw.activities.map((a) => ({
                id: a.id ?? null,
                name: a.name,
                kind: a.kind ?? "",
                description: a.description,
                start: instant(a.startsAt, a.startTime),
                end: instant(a.endsAt, a.endTime),
                cover: a.cover ?? "",
                startTime: a.startTime,
                endTime: a.endTime,
            })),
            updateMode: raw.updateMode ?? file.updateMode ?? null,
            dueAt,
            stale: dueAt !== null && this.now().getTime() >= dueAt.getTime(),
            fromCache,
            raw,
        };
    }
}
exports.ActivityClient = ActivityClient;
/**
 * The site root of a base URL as users write it: trailing slashes dropped,
 * and a base that already names the API (`…/api/v1`, `…/api/v1/activity`)
 * cut back to the root, as the tool's `diff` reads it.
 */
function siteRoot(baseUrl) {
    if (typeof baseUrl !== "string") {
        throw new TypeError(`baseUrl must be a string such as "https://example.org"; got ${show(baseUrl)}`);
    }
    const text = baseUrl.trim();
    let url;
    try {
        url = new URL(text);
    }
    catch {
        url = undefined;
    }
    if (!/^https?:\/\//i.test(text) || !url?.host) {
        const rest = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
        throw new TypeError(`baseUrl "${text}" is not an http or https address: write the scheme too, such as "https://${rest || "example.org"}"`);
    }
    const trimmed = text.replace(/\/+$/, "");
    for (const api of ["/api/v1/activity", "/api/v1"]) {
        if (trimmed.endsWith(api))
            return trimmed.slice(0, -api.length).replace(/\/+$/, "");
    }
    return trimmed;
}
/** The locale a game's un-suffixed document is in: the index's, else the file marked default. */
function defaultLocale(game) {
    return (game.defaultLocale ??
        game.files.find((f) => f.default)?.locale ??
        game.locales?.[0] ??
        game.files[0]?.locale ??
        "");
}
/** The game's name in `locale`: the one string, else the locale's, the default locale's, any. */
function gameName(game, locale) {
    const name = game.name;
    if (typeof name === "string")
        return name;
    if (name && typeof name === "object") {
        return name[locale] ?? name[defaultLocale(game)] ?? Object.values(name)[0] ?? game.id;
    }
    return game.id;
}
/** An error of one game of `endingSoon`, as an ActivitySiteError. */
function asSiteError(error, game) {
    if (error instanceof errors_js_1.ActivitySiteError)
        return error;
    const message = error instanceof Error ? error.message : String(error);
    return new errors_js_1.ActivitySiteError("invalid", `game "${game}": ${message}`, { cause: error });
}
/** A value as a message shows it: its type, and the value when short. */
function show(value) {
    if (value === null || value === undefined)
        return String(value);
    const text = typeof value === "string" ? JSON.stringify(value) : String(value);
    return `${typeof value} ${text.length > 40 ? text.slice(0, 40) + "…" : text}`;
}
function parse(body, path) {
    try {
        return JSON.parse(body);
    }
    catch (error) {
        throw new errors_js_1.ActivitySiteError("invalid", `${path} is not JSON: ${error.message}`);
    }
}
