import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * One process at a time may open the embedded database: PGlite is PostgreSQL in single-user mode, with no
 * postmaster to notice a second process writing the same files, so a CLI command beside a running server
 * wrote data the server never saw and the server's next checkpoint wrote over it (decision 016).
 *
 * The holder is recorded in $DATA_DIR/pg.lock as its pid and its process start time (decision 016): after
 * a kill -9 the pid is gone, or belongs to a newer process with another start time, so the lock is stale
 * and the next opener takes it over.
 */

export interface LockRecord {
  pid: number;
  /** Boot id and start tick (Linux) or `ps` start time; absent where neither can be read. */
  started?: string;
  /** Who holds it, for the refusal: "server" or "CLI command (seed:demo)". */
  holder: string;
}

export class DatabaseInUseError extends Error {
  override name = "DatabaseInUseError";
}

/** A process's start time, so a recycled pid is not mistaken for the holder; undefined if unknown. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime, clock ticks since boot); the command name in field 2 may hold spaces and ")".
    const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    if (ticks) return `${boot}:${ticks}`;
  } catch {
    // no /proc (macOS, BSD) or no such process
  }
  if (process.platform === "win32") return undefined;
  try {
    const started = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return started || undefined;
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the recorded holder is still running: same pid and, where both are known, same start time. */
export function holderIsAlive(record: LockRecord): boolean {
  if (!Number.isInteger(record.pid) || record.pid <= 0 || !pidExists(record.pid)) return false;
  if (!record.started) return true;
  const now = processStartTime(record.pid);
  return now === undefined || now === record.started;
}

function parseRecord(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as LockRecord;
    return typeof value.pid === "number" && typeof value.holder === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** ./data/pg when it is under the working directory, else the absolute path. */
function shown(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? `./${relative}` : dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A takeover mutex older than this was left by a process killed inside its few-millisecond critical section. */
const MUTEX_STALE_MS = 10_000;

/**
 * Removes a stale lock only if it still holds the very content judged stale, under a short exclusive
 * mutex, so two openers racing over one stale lock cannot both remove it and both take over.
 */
async function removeIfUnchanged(lockFile: string, staleText: string): Promise<void> {
  const mutex = `${lockFile}.takeover`;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(mutex, "wx"));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = Date.now() - (fs.statSync(mutex, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > MUTEX_STALE_MS) fs.rmSync(mutex, { force: true });
      else await sleep(20);
    }
  }
  try {
    if (readText(lockFile) === staleText) fs.rmSync(lockFile, { force: true });
  } finally {
    fs.rmSync(mutex, { force: true });
  }
}

export interface EmbeddedLock {
  release(): void;
}

/**
 * Takes $DATA_DIR/pg.lock for this process, or throws DatabaseInUseError naming the live holder:
 * "stop the server first: ./data/pg is in use by process N".
 */
export async function lockEmbeddedDatabase(dataDir: string, holder: string): Promise<EmbeddedLock> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, "pg.lock");
  const mine: LockRecord = { pid: process.pid, started: processStartTime(process.pid), holder };
  const myText = JSON.stringify(mine);
  // Written whole beside the lock, then hard-linked into place: link() fails if the lock exists, so the
  // lock file appears atomically with its full content (no reader ever sees it half-written).
  const draft = `${lockFile}.${process.pid}-${randomBytes(4).toString("hex")}.draft`;
  fs.writeFileSync(draft, myText);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(draft, lockFile);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 20) throw err;
      }
      const text = readText(lockFile);
      if (text === undefined) continue;
      const record = parseRecord(text);
      if (record && holderIsAlive(record)) {
        throw new DatabaseInUseError(
          `stop the ${record.holder} first: ${shown(path.join(dataDir, "pg"))} is in use by process ${record.pid}`,
        );
      }
      await removeIfUnchanged(lockFile, text);
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }

  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    try {
      if (readText(lockFile) === myText) fs.rmSync(lockFile, { force: true });
    } catch {
      // the data dir is gone: nothing to release
    }
  };
  // A process that exits without closing the database (process.exit on an error) leaves no lock behind.
  process.on("exit", release);
  return { release };
}
