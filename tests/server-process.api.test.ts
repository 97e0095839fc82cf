import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
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

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe("the server process", () => {
  it("refuses a bad PORT at start with a message naming it", async () => {
    const { exited, output } = start({ PORT: "abc" });
    expect(await exited).toBe(1);
    expect(output()).toContain("PORT: PORT must be a number");
  });

  it("starts on embedded defaults and shuts down cleanly on SIGTERM", async () => {
    const port = await freePort();
    const { child, exited } = start({ PORT: String(port) });
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
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status).toBe(401);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    // A cold PGlite start with migrations takes ~20 s on a busy 2-core machine: wait as long as the loop does.
  }, 90_000);
});
