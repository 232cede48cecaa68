// A loopback server over a hand-made site folder (clients/fixtures/site) that
// answers like a static host: ETag, Last-Modified, Cache-Control max-age,
// 304 to a matching If-None-Match. It records every request, and can be
// told to fail (503), to hang (never answer) or be closed (connection refused).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

export const FIXTURE_SITE = fileURLToPath(new URL("../../fixtures/site/", import.meta.url));

export interface Hit {
  path: string;
  status: number;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface FixtureServer {
  url: string;
  hits: Hit[];
  /** Paths of the requests the server took while hanging (it never answered them). */
  hung: string[];
  failing: boolean;
  hanging: boolean;
  close(): Promise<void>;
}

export async function serveFixture(root = FIXTURE_SITE): Promise<FixtureServer> {
  let server: Server;
  const state: FixtureServer = {
    url: "",
    hits: [],
    hung: [],
    failing: false,
    hanging: false,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://fixture").pathname;
    const ifNoneMatch = request.headers["if-none-match"];
    const ifModifiedSince = request.headers["if-modified-since"];
    if (state.hanging) {
      state.hung.push(path);
      return;
    }
    const answer = (status: number, headers: Record<string, string> = {}, body?: Buffer) => {
      state.hits.push({ path, status, ifNoneMatch, ifModifiedSince });
      response.writeHead(status, headers);
      response.end(body);
    };
    if (state.failing) return answer(503, { "content-type": "text/plain" }, Buffer.from("down"));
    if (path.includes("..")) return answer(400);
    let body: Buffer;
    try {
      body = await readFile(root + path.replace(/^\//, ""));
    } catch {
      return answer(404, { "content-type": "text/plain" }, Buffer.from("not found"));
    }
    const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
    const headers = {
      etag,
      "last-modified": "Fri, 27 Nov 2026 12:00:00 GMT",
      "cache-control": "public, max-age=300",
      "content-type": "application/json; charset=utf-8",
    };
    if (ifNoneMatch === etag) return answer(304, headers);
    answer(200, headers, body);
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
