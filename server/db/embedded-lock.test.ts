import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  DatabaseInUseError,
  holderIsAlive,
  lockEmbeddedDatabase,
  processStartTime,
} from "@/server/db/embedded-lock";

const dirs: string[] = [];
function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const writeLock = (dir: string, record: object) =>
  fs.writeFileSync(path.join(dir, "pg.lock"), JSON.stringify(record));
const readLock = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, "pg.lock"), "utf8"));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

describe("the embedded database lock", () => {
  it("records this process and removes the file on release", async () => {
    const dir = dataDir();
    const lock = await lockEmbeddedDatabase(dir, "server");
    expect(readLock(dir)).toEqual({
      pid: process.pid,
      started: processStartTime(process.pid),
      holder: "server",
    });
    lock.release();
    expect(fs.existsSync(path.join(dir, "pg.lock"))).toBe(false);
  });

  it("refuses while a live process holds it, naming the holder and its pid", async () => {
    const dir = dataDir();
    writeLock(dir, { pid: process.ppid, started: processStartTime(process.ppid), holder: "server" });
    const taking = lockEmbeddedDatabase(dir, "CLI command (seed:demo)");
    await expect(taking).rejects.toBeInstanceOf(DatabaseInUseError);
    await expect(taking).rejects.toThrow(
      `stop the server first: ${path.join(dir, "pg")} is in use by process ${process.ppid}`,
    );
    expect(readLock(dir).pid).toBe(process.ppid);
  });

  it("takes over a lock left by a process killed with kill -9", async () => {
    const dir = dataDir();
    writeLock(dir, { pid: deadPid(), started: "whenever", holder: "server" });
    const lock = await lockEmbeddedDatabase(dir, "CLI command (ledger:verify)");
    expect(readLock(dir)).toMatchObject({ pid: process.pid, holder: "CLI command (ledger:verify)" });
    lock.release();
  });

  it("takes over a lock whose pid now belongs to another, newer process (pid reuse)", async () => {
    const dir = dataDir();
    const record = { pid: process.ppid, started: "an earlier process", holder: "server" };
    expect(holderIsAlive(record)).toBe(false);
    writeLock(dir, record);
    const lock = await lockEmbeddedDatabase(dir, "server");
    expect(readLock(dir).pid).toBe(process.pid);
    lock.release();
  });

  it("lets exactly one of two racing openers take a stale lock", async () => {
    const dir = dataDir();
    writeLock(dir, { pid: deadPid(), holder: "server" });
    // Both run in this process, so the loser sees a live holder (this pid) and is refused.
    const results = await Promise.allSettled([
      lockEmbeddedDatabase(dir, "server"),
      lockEmbeddedDatabase(dir, "server"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
  });
});
