/**
 * When the version starts, in server time: YYYY-MM-DDTHH:MM:SS.
 */
export type LocalDateTime = string;
/**
 * When the version ends, in server time, usually at :59 seconds (03:59:59).
 */
export type LocalDateTime1 = string;
/**
 * Cover image of the version: an absolute https URL, or empty.
 */
export type CoverImageURL = string;
/**
 * When the activity starts, in server time: YYYY-MM-DDTHH:MM:SS. It may be before the version starts.
 */
export type LocalDateTime2 = string;
/**
 * When the activity ends, in server time; by convention at :59 seconds. It may be after the version ends.
 */
export type LocalDateTime3 = string;
/**
 * Cover image of the activity: an absolute https URL, or empty.
 */
export type CoverImageURL1 = string;
/**
 * startTime as an instant, with its offset.
 */
export type Instant = string;
/**
 * endTime as an instant, with its offset.
 */
export type Instant1 = string;
/**
 * The version's startTime as an instant, with its offset.
 */
export type Instant2 = string;
/**
 * The version's endTime as an instant, with its offset.
 */
export type Instant3 = string;
/**
 * One game version and its time-limited activities, in one language. Times are local server times without zone: YYYY-MM-DDTHH:MM:SS.
 */
export interface ActivityDocument {
    /**
     * The current game version number, such as "3.7".
     */
    version: string;
    /**
     * The version's title as announced.
     */
    versionName: string;
    startTime: LocalDateTime;
    endTime: LocalDateTime1;
    cover?: CoverImageURL;
    /**
     * The version's time-limited activities, in chronological order of startTime.
     */
    activities: Activity[];
    /**
     * The IANA time zone of the game's servers (`Asia/Shanghai`, `America/New_York`), in which every naive time of the document (startTime, endTime) is a wall-clock time. The zone belongs to the game's server, not to the document's language.
     */
    timeZone: string;
    startsAt: Instant2;
    endsAt: Instant3;
    /**
     * How the maintainers keep the document current: `version` (the whole document is replaced once per game version) or `activity` (activities are added as they are announced). A game whose registry entry names none gets `version` when its version is a dotted number (`4.6`) and `activity` otherwise.
     */
    updateMode: "version" | "activity";
    /**
     * When the document needs its next update, as an instant (RFC 3339 with the offset in force in the game's zone): the version's end for a `version` document, the latest end of its activities for an `activity` document (the version's end when it lists none). This is the rule the tool's `status` and the pages use. A client that reads the document after this moment holds data that may be out of date.
     */
    dueAt: string;
}
export interface Activity {
    /**
     * The activity's stable id: <game>-<version>-<nn>, the game, the version it was first given an id in and a number (sr-4.6-03). Lowercase and URL-safe. The same in every language of the game, kept through a rename, a corrected time and the next version; assigned by `activity-site check --fix` (never typed by hand) and never derived again: it is data. Optional in data written before ids; the first key of an activity.
     */
    id: string;
    /**
     * The activity's name as announced.
     */
    name: string;
    /**
     * Optional category, such as an event series; may be empty.
     */
    kind?: string;
    /**
     * What the activity is; may be empty.
     */
    description: string;
    startTime: LocalDateTime2;
    endTime: LocalDateTime3;
    cover?: CoverImageURL1;
    startsAt: Instant;
    endsAt: Instant1;
}
/**
 * The announcement board of the API (api/v1/anno.json for the site's default locale, api/v1/anno-<locale>.json for every locale), newest first. Clients show the board again only when `id` changes: raise it whenever the content changes.
 */
export interface AnnouncementsDocument {
    /**
     * A whole number, 0 or more, raised whenever the board's content changes: clients compare it with the last id they showed.
     */
    id: number;
    /**
     * Optional: when the board last changed, RFC 3339 with an offset (2026-11-20T10:00:00+08:00). The board's Atom feed takes its `updated` from here (the Unix epoch without it), so the feed changes only with the board.
     */
    updated?: string;
    /**
     * The announcements, newest first.
     */
    announcements: Announcement[];
}
export interface Announcement {
    /**
     * The announcement's title, shown in the board's list.
     */
    title: string;
    /**
     * The announcement's text, in Markdown (CommonMark). Links are absolute http(s) URLs, site paths (/...) or anchors (#...); raw HTML is shown as text.
     */
    content: string;
    /**
     * How `content` is written; only "markdown", which is also what an absent contentType means.
     */
    contentType?: "markdown";
}
/**
 * The index of the API: every game the site publishes, its registry entry's public fields, the default locale's version window, and every file that holds it. Read it first. Its paths are site-absolute (they start with `/`): relative to the site's root. A reader should ignore fields it does not know: within this version of the API fields are added, never removed or retyped.
 */
export interface IndexOfTheActivityAPI {
    games: Game[];
    /**
     * The announcements boards, one per locale (absent from a site without them).
     */
    announcements?: Announcements[];
}
export interface Game {
    /**
     * The game's id: lowercase letters and digits in parts joined by `-`.
     */
    id: string;
    /**
     * One string for every locale, or an object from locale tag to string.
     */
    name?: string | {
        [k: string]: string;
    };
    locales: string[];
    /**
     * The locale whose document is also published under the un-suffixed name `<game>.json`.
     */
    defaultLocale?: string;
    /**
     * The IANA zone of the game's servers: every naive time of its documents is a wall-clock time there (each document names it too, as `timeZone`).
     */
    timeZone?: string;
    /**
     * One string for every locale, or an object from locale tag to string.
     */
    dataSource?: string | {
        [k: string]: string;
    };
    version: string;
    versionName: string;
    /**
     * The default locale's version start, a naive local time of timeZone.
     */
    startTime: string;
    /**
     * The default locale's version end, a naive local time of timeZone.
     */
    endTime: string;
    /**
     * Every published document of the game, under every name (the default locale's twice).
     */
    files: File[];
    /**
     * Locales the registry lists that have no document yet: nothing is published under their names.
     */
    pending?: string[];
    /**
     * The registry's sources, as `games.json` has them: a map from a locale tag (or `all`) to a list of sources.
     */
    dataSources?: {
        [k: string]: {}[];
    };
    /**
     * The update mode the registry names for the game (absent when it names none; each entry of `files` gives the mode in force).
     */
    updateMode?: "version" | "activity";
    /**
     * The game's timeZone was assumed when the data was imported and is not yet confirmed.
     */
    timeZoneAssumed?: boolean;
    /**
     * The registry's conventions for the game's sources (end seconds they write on purpose, warning rules turned off), as `games.json` has them.
     */
    conventions?: {};
}
export interface File {
    locale: string;
    /**
     * This is the un-suffixed `<game>.json` of the default locale.
     */
    default: boolean;
    /**
     * The document, site-absolute.
     */
    path: string;
    /**
     * Its iCalendar feed, site-absolute.
     */
    calendar: string;
    /**
     * Hex SHA-256 of the document's bytes.
     */
    sha256: string;
    bytes: number;
    /**
     * How the maintainers keep the document current: `version` (the whole document is replaced once per game version) or `activity` (activities are added as they are announced). A game whose registry entry names none gets `version` when its version is a dotted number (`4.6`) and `activity` otherwise.
     */
    updateMode?: "version" | "activity";
    /**
     * When the document needs its next update, as an instant (RFC 3339 with the offset in force in the game's zone): the version's end for a `version` document, the latest end of its activities for an `activity` document (the version's end when it lists none). This is the rule the tool's `status` and the pages use. A client that reads the document after this moment holds data that may be out of date.
     */
    dueAt?: string;
}
export interface Announcements {
    locale: string;
    /**
     * This is the un-suffixed board of the site's default locale.
     */
    default: boolean;
    /**
     * The board, site-absolute.
     */
    path: string;
    /**
     * Its Atom feed, site-absolute.
     */
    feed: string;
    /**
     * The board's id, raised whenever its content changes.
     */
    id: number;
    sha256: string;
    bytes: number;
}
