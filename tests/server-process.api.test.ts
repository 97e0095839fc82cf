import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPgliteDatabase } from "@/server/db/client";
import { programArgs } from "@/tests/support/program";
import { signupBody } from "@/tests/support/users";

const root = path.resolve(import.meta.dirname, "..");
// Every process here runs on the embedded database, whatever DATABASE_URL says: the file runs in the no-service
// run (`npm test` or `npm run test:api` without DATABASE_URL; CI's PGlite stage), not once more beside PostgreSQL.
const onEmbeddedRun = !process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-process-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function start(
  env: Record<string, string>,
  program: "server/main.ts" | "scripts/cli.ts" = "server/main.ts",
  args: string[] = [],
) {
  const child = spawn(process.execPath, [...programArgs(program), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe.runIf(onEmbeddedRun)("the server process", () => {
  it("refuses a bad PORT at start with a message naming it", async () => {
    const { exited, output } = start({ PORT: "abc" });
    expect(await exited).toBe(1);
    expect(output()).toContain("PORT: PORT must be a number");
  });

  it("starts on embedded defaults and shuts down cleanly on SIGTERM", async () => {
    const port = await freePort();
    const { child, exited, output } = start({ PORT: String(port), LOG_LEVEL: "info" });
    const deadline = Date.now() + 60_000;
    let ready = false;
    while (!ready && Date.now() < deadline) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ready).toBe(true);
    // The start banner names the Node it runs on (the pinned one: scripts/node-runtime.test.ts).
    expect(output()).toContain(`on Node ${process.version}`);
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status).toBe(401);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    // A cold PGlite start with migrations takes ~20 s on a busy 2-core machine: wait as long as the loop does.
  }, 90_000);

  it("exits 0 on SIGTERM once the requests in flight on keep-alive connections are answered", async () => {
    const port = await freePort();
    // At info the server logs "incoming request" as it routes each one: the test's way to know they arrived.
    const { child, exited, output } = start({ PORT: String(port), LOG_LEVEL: "info" });
    await waitUntilReady(port);
    // Like a load balancer's pool: each socket stays open after its response unless the server closes it.
    const agent = new http.Agent({ keepAlive: true });
    const register = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: "127.0.0.1", port, path: "/api/auth/register", method: "POST", agent },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.setHeader("content-type", "application/json");
        req.end(JSON.stringify(signupBody()));
      });
    const replies = Array.from({ length: 6 }, register);
    // SIGTERM once one answer has left (its socket now idle in the agent's pool) and the server has routed
    // all six: a request still unread at SIGTERM is refused (503) or its connection closed as idle, which is
    // right for a closing server, but then the test would not be about requests in flight. The first answer
    // alone did not guarantee that on a loaded machine.
    await Promise.race(replies);
    await waitUntil(
      "the server to have routed all six registrations",
      () =>
        output()
          .split("\n")
          .filter((line) => line.includes("incoming request") && line.includes("/api/auth/register"))
          .length >= 6,
    );
    child.kill("SIGTERM");
    expect(await Promise.all(replies)).toEqual(Array(6).fill(200));
    // Without Connection: close on those answers the server would wait out the keep-alive timeout and be
    // killed by its shutdown deadline (exit 1).
    expect(await exited, output()).toBe(0);
    agent.destroy();
  }, 90_000);
});

/** `npm run cli -- …` on the test's DATA_DIR, to its end. */
function cli(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...programArgs("scripts/cli.ts"), ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, out: stdout + stderr }),
    );
  });
}

const lockFile = () => path.join(dataDir, "pg.lock");

describe.runIf(onEmbeddedRun)("one process at a time on the embedded database", () => {
  const pgDir = path.join(dataDir, "pg");

  it("a CLI command refuses while the server runs, writes nothing, and works after a kill -9 of the server", async () => {
    const port = await freePort();
    const server = start({ PORT: String(port) });
    await waitUntilReady(port);
    const customer = signupBody();
    const registered = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(customer),
    });
    expect(registered.status).toBe(200);

    const seed = await cli("seed:demo");
    expect(seed.code).toBe(1);
    expect(seed.out.trim()).toBe(`stop the server first: ${pgDir} is in use by process ${server.child.pid}`);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // A holder killed without a chance to clean up leaves its lock file; the next opener takes it over.
    server.child.kill("SIGKILL");
    await server.exited;
    expect(fs.existsSync(lockFile())).toBe(true);
    const verify = await cli("ledger:verify");
    expect(verify.out).toContain("Ledger verified: no drift.");
    expect(verify.code).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);

    // The server's data is intact and the refused seed wrote nothing.
    const database = await createPgliteDatabase(dataDir, "test");
    try {
      const rows = await database.query<{ email: string }>(
        "select email from users where email = $1 or email like 'demo-%' order by email",
        [customer.email],
      );
      expect(rows).toEqual([{ email: customer.email }]);
    } finally {
      await database.close();
    }
  }, 180_000);

  it("the server refuses to start while a CLI command runs, and starts after a kill -9 of the command", async () => {
    const seed = start({}, "scripts/cli.ts", ["seed:demo"]);
    // Frozen as soon as it holds the database: a CLI command in the middle of its work.
    await waitFor(
      () => fs.existsSync(lockFile()) && fs.readFileSync(lockFile(), "utf8").includes("seed:demo"),
    );
    seed.child.kill("SIGSTOP");
    try {
      const port = await freePort();
      const refused = start({ PORT: String(port) });
      expect(await refused.exited, refused.output()).toBe(1);
      expect(refused.output().trim()).toBe(
        `stop the CLI command (seed:demo) first: ${pgDir} is in use by process ${seed.child.pid}`,
      );
    } finally {
      seed.child.kill("SIGKILL");
      await seed.exited;
    }

    const port = await freePort();
    const server = start({ PORT: String(port) });
    await waitUntilReady(port);
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status).toBe(401);
    server.child.kill("SIGTERM");
    expect(await server.exited, server.output()).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);
  }, 180_000);
});

async function waitFor(check: () => boolean) {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("the CLI command did not take the lock within 60 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function waitUntilReady(port: number) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not become ready within 60 s");
}

async function waitUntil(what: string, check: () => boolean) {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
