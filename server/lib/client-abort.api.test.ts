import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { createTestDatabase } from "@/tests/support/test-database";

interface LogLine {
  level: number;
  msg: string;
}

const lines: LogLine[] = [];
let app: App;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-abort-"));
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as LogLine);
      done();
    },
  });
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir });
  app = await buildApp({ config, database }, { logger: { level: "info", stream } as never });
  await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a client that hangs up mid-body", () => {
  it("is logged as an abort, not as a backing-service failure at error level", async () => {
    const { port } = app.server.address() as net.AddressInfo;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await expect.poll(() => lines.some((l) => l.msg === "client aborted the request")).toBe(true);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
