// activity-site-client: the published API of an activity-site build, read
// the way every client needs it: activities by id, times as instants on the
// game's clock, due times, HTTP caching and the last good copy.

import { ActivitySiteError } from "./errors.js";
import { Http } from "./http.js";
import type * as Wire from "./schema.js";
import { naiveToInstant, parseInstant } from "./time.js";

export { ActivitySiteError, type ErrorCode } from "./errors.js";
export { naiveToInstant, parseInstant } from "./time.js";
/** The published documents as they are on the wire (generated from the site's schemas). */
export type * as wire from "./schema.js";

/** The path of the index every game is listed in, under the site's address. */
const INDEX_PATH = "/api/v1/games.json";

export interface ClientOptions {
  /** The site's address, such as `https://example.org` (a path prefix is kept). */
  baseUrl: string;
  /** A folder that keeps the last good copy of every file across runs (Node only). */
  cacheDir?: string;
  /** Bodies larger than this are refused; 4 MiB unless given. */
  maxBodyBytes?: number;
  /** A request that takes longer fails (and the kept copy is returned); 10 s unless given. */
  timeoutMs?: number;
  /** After a failure, the kept copy is returned without asking again for this long; 5 min unless given. */
  retryAfterMs?: number;
  /** The clock `stale` and `endingSoon` read; the system's unless given. */
  now?: () => Date;
  /** The fetch to use; the platform's unless given. */
  fetch?: typeof globalThis.fetch;
}

/** An activity, with its times as instants. */
export interface Activity {
  /** The stable id the site publishes (`sr-4.6-03`); null on a site that publishes none. */
  id: string | null;
  name: string;
  kind: string;
  description: string;
  start: Date;
  end: Date;
  cover: string;
  /** The naive wall times as published, in the game's zone. */
  startTime: string;
  endTime: string;
}

/** One game's document in one locale. */
export interface GameDocument {
  /** The game's id in the index (`sr`). */
  id: string;
  /** The game's name in this locale, from the index. */
  name: string;
  locale: string;
  /** The IANA zone of the game's naive times. */
  timeZone: string;
  version: string;
  versionName: string;
  start: Date;
  end: Date;
  cover: string;
  activities: Activity[];
  /** `version` or `activity`: what makes the document due; null when the site does not say. */
  updateMode: string | null;
  /** When the document is due for an update; null when the site does not say. */
  dueAt: Date | null;
  /** The due time has passed: the document may be out of date. */
  stale: boolean;
  /** The network or the server failed and a kept copy was returned. */
  fromCache: boolean;
  /** The document as published, every field (those this client does not read too). */
  raw: Wire.ActivityDocument;
}

/** A game as the index lists it. */
export interface GameEntry {
  id: string;
  name: Record<string, string>;
  locales: string[];
  defaultLocale: string;
  timeZone: string;
  files: FileEntry[];
  /** Locales the game lists whose documents are not published yet. */
  pending?: string[];
}

interface FileEntry {
  locale: string;
  default: boolean;
  path: string;
  updateMode?: string;
  dueAt?: string;
}

type RawDocument = Omit<Wire.ActivityDocument, "activities"> & ContractFields;

/** The fields the contract adds to an activity document (issue 55). */
interface ContractFields {
  timeZone?: string;
  startsAt?: string;
  endsAt?: string;
  updateMode?: string;
  dueAt?: string;
  activities: (Wire.Activity & { id?: string; startsAt?: string; endsAt?: string })[];
}

export interface Ending {
  game: GameDocument;
  activity: Activity;
}

export class ActivityClient {
  private readonly base: string;
  private readonly http: Http;
  private readonly now: () => Date;

  constructor(options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, "");
    this.now = options.now ?? (() => new Date());
    this.http = new Http({
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      now: this.now,
      maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
      timeoutMs: options.timeoutMs ?? 10_000,
      retryAfterMs: options.retryAfterMs ?? 300_000,
      cacheDir: options.cacheDir,
    });
  }

  /** The games the index lists, as published (`id`, `name`, `locales`, `timeZone`, ...). */
  async games(): Promise<GameEntry[]> {
    return (await this.index()).games;
  }

  /** The games the index lists, and whether the index came from the kept copy. */
  private async index(): Promise<{ games: GameEntry[]; fromCache: boolean }> {
    const { body, fromCache } = await this.http.get(this.base + INDEX_PATH);
    const index = parse<{ games?: GameEntry[] }>(body, INDEX_PATH);
    if (!Array.isArray(index.games)) {
      throw new ActivitySiteError("invalid", `${INDEX_PATH} has no games list`);
    }
    return { games: index.games, fromCache };
  }

  /** A game's document, in its default locale unless `locale` is given. */
  async game(id: string, options: { locale?: string } = {}): Promise<GameDocument> {
    const index = await this.index();
    const game = index.games.find((g) => g.id === id);
    if (!game) {
      const known = index.games.map((g) => g.id).join(", ");
      throw new ActivitySiteError("unknown-game", `the site lists no game "${id}"; it lists: ${known}`);
    }
    const locale = options.locale ?? game.defaultLocale;
    const file =
      game.files.find((f) => f.locale === locale && (options.locale === undefined ? f.default : true)) ??
      game.files.find((f) => f.locale === locale);
    if (!file) {
      const published = [...new Set(game.files.map((f) => f.locale))].join(", ");
      const why = game.pending?.includes(locale) ? " yet (it is listed as pending)" : "";
      throw new ActivitySiteError(
        "unknown-locale",
        `game "${id}" has no document in locale "${locale}"${why}; it has: ${published}`,
      );
    }
    const fetched = await this.http.get(this.base + file.path);
    const raw = parse<RawDocument>(fetched.body, file.path);
    return this.document(game, file, locale, raw, fetched.fromCache || index.fromCache);
  }

  /**
   * The activities of every game (in its default locale) that end within
   * the hours given from now, soonest first.
   */
  async endingSoon(options: { withinHours: number }): Promise<Ending[]> {
    const now = this.now().getTime();
    const until = now + options.withinHours * 3_600_000;
    const games = await Promise.all((await this.games()).map((entry) => this.game(entry.id)));
    const found: Ending[] = [];
    for (const game of games) {
      for (const activity of game.activities) {
        const end = activity.end.getTime();
        if (end > now && end <= until) found.push({ game, activity });
      }
    }
    return found.sort((a, b) => a.activity.end.getTime() - b.activity.end.getTime());
  }

  private document(
    game: GameEntry,
    file: FileEntry,
    locale: string,
    raw: RawDocument,
    fromCache: boolean,
  ): GameDocument {
    const zone = raw.timeZone ?? game.timeZone;
    const instant = (withOffset: string | undefined, naive: string) =>
      withOffset ? parseInstant(withOffset) : naiveToInstant(naive, zone);
    const due = raw.dueAt ?? file.dueAt;
    const dueAt = due ? parseInstant(due) : null;
    return {
      id: game.id,
      name: game.name[locale] ?? game.name[game.defaultLocale] ?? game.id,
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

function parse<T>(body: string, path: string): T {
  try {
    return JSON.parse(body) as T;
  } catch (error) {
    throw new ActivitySiteError("invalid", `${path} is not JSON: ${(error as Error).message}`);
  }
}
