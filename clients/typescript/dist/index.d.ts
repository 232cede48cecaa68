import { ActivitySiteError } from "./errors.js";
import type * as Wire from "./schema.js";
export { ActivitySiteError, type ErrorCode } from "./errors.js";
export { naiveToInstant, parseInstant } from "./time.js";
/** The published documents as they are on the wire (generated from the site's schemas). */
export type * as wire from "./schema.js";
export interface ClientOptions {
    /**
     * The site's address, such as `https://example.org` (a path prefix is kept; a trailing
     * `/api/v1` or `/api/v1/activity` is the same site). Without `http://` or `https://` the
     * constructor throws.
     */
    baseUrl: string;
    /** A folder that keeps the last good copy of every file across runs (Node only). */
    cacheDir?: string;
    /** Bodies larger than this are refused; 4 MiB unless given. */
    maxBodyBytes?: number;
    /**
     * A request that takes longer fails (and the kept copy is returned); 10 s unless given.
     * `endingSoon` spends at most this long on all its requests together.
     */
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
/** A game as the index lists it (the fields the published schema makes optional may be absent). */
export interface GameEntry {
    id: string;
    /** One name for every locale, or a map from locale to name. */
    name?: string | Record<string, string>;
    locales: string[];
    defaultLocale?: string;
    timeZone?: string;
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
export interface Ending {
    game: GameDocument;
    activity: Activity;
    /**
     * The game has no document in the locale asked for, so its default locale's was read
     * (`game.locale` names the one read); false when no locale was asked for.
     */
    fallback: boolean;
}
/** What `endingSoon` found, soonest end first, and the games it could not read. */
export interface EndingSoon extends Array<Ending> {
    /**
     * The games neither the site nor a kept copy gave a document for in time,
     * each with why; the others' activities are listed.
     */
    unavailable: {
        game: string;
        error: ActivitySiteError;
    }[];
}
export interface EndingSoonOptions {
    /** How far ahead to look, in hours (`72`). */
    withinHours: number;
    /** Each game's document in this locale where it has one, else its default locale's. */
    locale?: string;
}
export declare class ActivityClient {
    private readonly base;
    private readonly http;
    private readonly now;
    private readonly timeoutMs;
    constructor(options: ClientOptions);
    /** The games the index lists, as published (`id`, `name`, `locales`, `timeZone`, ...). */
    games(): Promise<GameEntry[]>;
    /** The games the index lists, and whether the index came from the kept copy. */
    private index;
    /** A game's document, in its default locale unless `locale` is given. */
    game(id: string, options?: {
        locale?: string;
    }): Promise<GameDocument>;
    /** The document of a game the index lists, in `locale` or the game's default. */
    private read;
    /**
     * The activities of every game that end within the hours given from now,
     * soonest first: each game's document in `locale` where it has one, else in
     * its default locale (`fallback` says which). The call takes about one
     * timeout at most: its requests run together under one deadline, and a game
     * the site does not answer for in time gives its kept copy (`fromCache`), or
     * is listed in `unavailable`.
     */
    endingSoon(options: EndingSoonOptions): Promise<EndingSoon>;
    private document;
}
