/** What went wrong, for a program to tell apart. */
export type ErrorCode = 
/** The index does not list the game asked for. */
"unknown-game"
/** The game has no document in the locale asked for. */
 | "unknown-locale"
/** The network failed and no copy is kept. */
 | "network"
/** The server answered an error (a 4xx, or a 5xx with no copy kept). */
 | "http"
/** The body is larger than maxBodyBytes. */
 | "too-large"
/** The body is not the document the site publishes. */
 | "invalid";
export declare class ActivitySiteError extends Error {
    readonly code: ErrorCode;
    readonly name = "ActivitySiteError";
    constructor(code: ErrorCode, message: string, options?: {
        cause?: unknown;
    });
}
