// One GET with everything a reader of a static API owes it: the freshness
// the server gives (Cache-Control max-age), revalidation (If-None-Match,
// If-Modified-Since; a 304 keeps the body), a bounded body, and the last
// good copy (in memory, and on disk when given a folder) when the network or
// the server fails.

import { ActivitySiteError } from "./errors.js";

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

/** What is kept of a good answer, in memory and in the cache folder. */
interface Entry {
  url: string;
  body: string;
  etag?: string;
  lastModified?: string;
  /** Until when (ms since the epoch) the copy may be used without asking. */
  freshUntil: number;
}

/** The max-age of a Cache-Control header in seconds; 0 for no-cache, no-store or none. */
export function maxAge(header: string | null): number {
  if (!header) return 0;
  const directives = header
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  if (directives.some((d) => d === "no-cache" || d === "no-store")) return 0;
  const age = directives.map((d) => /^max-age=(\d+)$/.exec(d)?.[1]).find((v) => v !== undefined);
  return age === undefined ? 0 : Number(age);
}

export class Http {
  private readonly memory = new Map<string, Entry>();
  /** Requests under way, so that concurrent reads of one URL make one request. */
  private readonly pending = new Map<string, Promise<Fetched>>();
  /** After a failure, until when (ms) the kept copy is returned without asking again. */
  private readonly retryAt = new Map<string, number>();

  constructor(private readonly options: HttpOptions) {}

  /**
   * The body of `url`. With a `deadline` (ms since the epoch, on the
   * platform's clock), the request is cut at that moment, and none is made
   * once it has passed: the kept copy is returned, marked, or the call fails.
   */
  get(url: string, deadline?: number): Promise<Fetched> {
    let request = this.pending.get(url);
    if (!request) {
      request = this.fetchOrKeep(url, deadline).finally(() => this.pending.delete(url));
      this.pending.set(url, request);
    }
    return request;
  }

  private async fetchOrKeep(url: string, deadline?: number): Promise<Fetched> {
    const now = this.options.now().getTime();
    const kept = this.memory.get(url) ?? (await this.readDisk(url));
    if (kept && now < kept.freshUntil) return { body: kept.body, fromCache: false };
    if (kept && now < (this.retryAt.get(url) ?? 0)) return { body: kept.body, fromCache: true };
    const failed = (): Fetched => {
      this.retryAt.set(url, now + this.options.retryAfterMs);
      return { body: kept!.body, fromCache: true };
    };

    // The time left to the caller's deadline, which bounds this request as the timeout does.
    const left =
      deadline === undefined
        ? this.options.timeoutMs
        : Math.min(this.options.timeoutMs, deadline - Date.now());
    if (left <= 0) {
      if (kept) return { body: kept.body, fromCache: true };
      throw new ActivitySiteError(
        "network",
        `GET ${url} was not made: the call's time (timeoutMs) had run out`,
      );
    }
    const headers: Record<string, string> = { accept: "application/json" };
    if (kept?.etag) headers["if-none-match"] = kept.etag;
    if (kept?.lastModified) headers["if-modified-since"] = kept.lastModified;
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        headers,
        signal: AbortSignal.timeout(left),
      });
    } catch (error) {
      // Connection refused, reset, a DNS failure, the timeout.
      if (kept) return failed();
      throw new ActivitySiteError("network", `GET ${url} failed: ${describe(error)}`, { cause: error });
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      if (kept) return failed();
      throw new ActivitySiteError("http", `GET ${url} answered ${response.status}, and no copy is kept`);
    }
    this.retryAt.delete(url);
    const freshUntil = now + maxAge(response.headers.get("cache-control")) * 1000;
    if (response.status === 304 && kept) {
      await response.body?.cancel();
      const entry: Entry = {
        ...kept,
        etag: response.headers.get("etag") ?? kept.etag,
        lastModified: response.headers.get("last-modified") ?? kept.lastModified,
        freshUntil,
      };
      await this.keep(entry);
      return { body: entry.body, fromCache: false };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new ActivitySiteError("http", `GET ${url} answered ${response.status}`);
    }
    let body: string;
    try {
      body = await this.readBody(url, response);
    } catch (error) {
      // The answer was cut or the time ran out while it was read.
      if (error instanceof ActivitySiteError) throw error;
      if (kept) return failed();
      throw new ActivitySiteError("network", `GET ${url} failed: ${describe(error)}`, { cause: error });
    }
    await this.keep({
      url,
      body,
      etag: response.headers.get("etag") ?? undefined,
      lastModified: response.headers.get("last-modified") ?? undefined,
      freshUntil,
    });
    return { body, fromCache: false };
  }

  /** The body as text, refused past maxBodyBytes (declared or read). */
  private async readBody(url: string, response: Response): Promise<string> {
    const limit = this.options.maxBodyBytes;
    const tooLarge = () =>
      new ActivitySiteError("too-large", `GET ${url}: the body is larger than ${limit} bytes (maxBodyBytes)`);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > limit) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.byteLength;
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(all);
  }

  private async keep(entry: Entry): Promise<void> {
    this.memory.set(entry.url, entry);
    const file = await this.diskFile(entry.url);
    if (!file) return;
    const { mkdir, writeFile, rename } = await import("node:fs/promises");
    await mkdir(this.options.cacheDir!, { recursive: true });
    // Written beside and renamed, so a reader never sees half a file.
    const temp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temp, JSON.stringify(entry));
    await rename(temp, file);
  }

  private async readDisk(url: string): Promise<Entry | undefined> {
    const file = await this.diskFile(url);
    if (!file) return undefined;
    const { readFile } = await import("node:fs/promises");
    try {
      const entry = JSON.parse(await readFile(file, "utf8")) as Entry;
      if (entry.url !== url || typeof entry.body !== "string") return undefined;
      this.memory.set(url, entry);
      return entry;
    } catch {
      // Absent or unreadable: as if nothing were kept.
      return undefined;
    }
  }

  /** The cache file of a URL: its SHA-256 in the cache folder (Node only). */
  private async diskFile(url: string): Promise<string | undefined> {
    if (!this.options.cacheDir) return undefined;
    const { createHash } = await import("node:crypto");
    const { join } = await import("node:path");
    return join(this.options.cacheDir, `${createHash("sha256").update(url).digest("hex")}.json`);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
