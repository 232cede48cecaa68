/** A body the client read, and where it came from. */
export interface Fetched {
    body: string;
    /** The network or the server failed and this is the last good copy. */
    fromCache: boolean;
}
export interface HttpOptions {
    fetch: typeof globalThis.fetch;
    now: () => Date;
    maxBodyBytes: number;
    timeoutMs: number;
    retryAfterMs: number;
    cacheDir?: string;
}
/** The max-age of a Cache-Control header in seconds; 0 for no-cache, no-store or none. */
export declare function maxAge(header: string | null): number;
export declare class Http {
    private readonly options;
    private readonly memory;
    /** Requests under way, so that concurrent reads of one URL make one request. */
    private readonly pending;
    /** After a failure, until when (ms) the kept copy is returned without asking again. */
    private readonly retryAt;
    constructor(options: HttpOptions);
    /**
     * The body of `url`. With a `deadline` (ms since the epoch, on the
     * platform's clock), the request is cut at that moment, and none is made
     * once it has passed: the kept copy is returned, marked, or the call fails.
     */
    get(url: string, deadline?: number): Promise<Fetched>;
    private fetchOrKeep;
    /** The body as text, refused past maxBodyBytes (declared or read). */
    private readBody;
    private keep;
    private readDisk;
    /** The cache file of a URL: its SHA-256 in the cache folder (Node only). */
    private diskFile;
}
