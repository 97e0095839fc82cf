import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { createTestDatabase } from "@/tests/support/test-database";

let app: App;
let database: Database;
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-web-"));

beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, "assets"));
  fs.writeFileSync(
    path.join(webDir, "index.html"),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script>',
  );
  fs.writeFileSync(path.join(webDir, "assets/app-abc123.js"), "console.log('app')");
  // What vite.config.ts's precompress plugin writes beside each asset.
  fs.writeFileSync(path.join(webDir, "assets/app-abc123.js.br"), brotliCompressSync("console.log('app')"));
  fs.writeFileSync(path.join(webDir, "assets/app-abc123.js.gz"), gzipSync("console.log('app')"));
  fs.writeFileSync(path.join(webDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: webDir, LOG_LEVEL: "silent" });
  app = await buildApp({ config, database }, { logger: false, webDir, mailWorker: false });
});
afterAll(async () => {
  await app.close();
  await database.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe("serving the built web app", () => {
  it("serves hashed assets with a year-long immutable cache", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("serves the build's precompressed brotli or gzip copy to browsers that accept it", async () => {
    const br = await app.inject({
      method: "GET",
      url: "/assets/app-abc123.js",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.equals(brotliCompressSync("console.log('app')"))).toBe(true);

    const gz = await app.inject({
      method: "GET",
      url: "/assets/app-abc123.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(gz.headers["content-encoding"]).toBe("gzip");

    const plain = await app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe("console.log('app')");
  });

  it("serves the app shell, never cached, for every client route", async () => {
    for (const url of ["/", "/dashboard", "/admin", "/dashboard-edit/123", "/no/such/page"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toContain('<div id="root">');
    }
  });

  it("answers a missing asset with 404 instead of the app shell", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/app-old999.js" });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it("lets the browser's CSP allow only our own scripts", async () => {
    const res = await app.inject({ method: "GET", url: "/" });
    const csp = res.headers["content-security-policy"] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
  });
});
