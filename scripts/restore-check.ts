// `npm run cli -- db:restore-check`: restores the pgBackRest repository to a point in time into a scratch
// PostgreSQL of its own (a temp dir, a free loopback port, never the live cluster), then checks the ledger and
// recomputes every statement digest there (decision 033).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { createDatabase, queryRows } from "@/server/db/client";
import { computeStatementDigest, findStatementMonths } from "@/server/features/statements/statement-data";
import { verifyLedger } from "@/server/lib/ledger";

export const PGBACKREST_BIN = process.env.PGBACKREST ?? "/usr/bin/pgbackrest";

export interface RestoreOptions {
  /** pgBackRest's stanza (its name for the cluster). */
  stanza: string;
  /** pgBackRest's configuration file; its default (/etc/pgbackrest/pgbackrest.conf) when undefined. */
  configFile?: string;
  /** Restore up to this instant (a PostgreSQL timestamp with its zone); the end of the archive when undefined. */
  target?: string;
}

export interface RestoredCluster {
  /** A superuser URL to the restored cluster's `database`. */
  url(database: string): string;
  dir: string;
  stop(): Promise<void>;
}

/** The newest PostgreSQL server Debian installed (/usr/lib/postgresql/<major>/bin). */
function postgresBinDir(): string {
  const base = "/usr/lib/postgresql";
  const majors = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!majors[0])
    throw new Error("no PostgreSQL server in /usr/lib/postgresql (apt-get install -y postgresql)");
  return path.join(base, majors[0], "bin");
}

/** PostgreSQL and pgBackRest refuse to run as root: as root they run as the postgres account. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], what: string) {
  const result = spawnSync(command, args, { encoding: "utf8", ...(runAs() ?? {}) });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/**
 * Restores the stanza's latest backup and replays archived WAL up to `target` into a new data directory,
 * then starts it (archiving off, no synchronous standbys) and waits until recovery ended and it was promoted.
 */
export async function restoreToPoint(options: RestoreOptions): Promise<RestoredCluster> {
  const binDir = postgresBinDir();
  const owner = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-restore-"));
  const dataDir = path.join(dir, "data");
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const port = await freePort();
  const config = options.configFile ? [`--config=${options.configFile}`] : [];
  const stop = async () => stopRestoredCluster(dir);
  try {
    run(
      PGBACKREST_BIN,
      [
        ...config,
        `--stanza=${options.stanza}`,
        `--pg1-path=${dataDir}`,
        "--archive-mode=off",
        ...(options.target
          ? ["--type=time", `--target=${options.target}`, "--target-action=promote"]
          : ["--type=default"]),
        "--log-level-console=warn",
        "restore",
      ],
      "pgbackrest restore",
    );
    // The backup carries the node's own settings (its port, socket dir, HBA file, standbys to wait for):
    // the scratch cluster overrides every one that would reach for the live cluster.
    const settings = [
      `port=${port}`,
      "listen_addresses=127.0.0.1",
      `unix_socket_directories=${dir}`,
      `hba_file=${path.join(dataDir, "pg_hba.conf")}`,
      `ident_file=${path.join(dataDir, "pg_ident.conf")}`,
      "synchronous_standby_names=",
      "archive_mode=off",
      "hot_standby=on",
      "cluster_name=pillar-restore-check",
    ];
    fs.writeFileSync(
      path.join(dataDir, "pg_hba.conf"),
      "local all all trust\nhost all all 127.0.0.1/32 trust\n",
    );
    if (owner) fs.chownSync(path.join(dataDir, "pg_hba.conf"), owner.uid, owner.gid);
    run(
      path.join(binDir, "pg_ctl"),
      [
        "-D",
        dataDir,
        "-l",
        path.join(dir, "postgres.log"),
        "-w",
        "-t",
        "300",
        "-o",
        settings.map((s) => `-c ${s.replace(/=$/, "=''")}`).join(" "),
        "start",
      ],
      "starting the restored cluster",
    );
    const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
    const deadline = Date.now() + 300_000;
    for (;;) {
      const state = spawnSync(
        path.join(binDir, "psql"),
        [
          "-h",
          dir,
          "-p",
          String(port),
          "-U",
          "postgres",
          "-d",
          "postgres",
          "-Atc",
          "select pg_is_in_recovery()",
        ],
        { encoding: "utf8", ...(owner ?? {}) },
      );
      if (state.stdout.trim() === "f") break;
      if (Date.now() > deadline) {
        const log = fs.readFileSync(path.join(dir, "postgres.log"), "utf8").slice(-3000);
        throw new Error(`the restored cluster did not end its recovery:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return { url, dir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Stops a restored cluster (one `--keep` left running) and removes its directory. */
export function stopRestoredCluster(dir: string) {
  const dataDir = path.join(dir, "data");
  if (fs.existsSync(path.join(dataDir, "postmaster.pid"))) {
    spawnSync(path.join(postgresBinDir(), "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"], {
      stdio: "ignore",
      ...(runAs() ?? {}),
    });
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface RestoreReport {
  ledgerOk: boolean;
  problems: string[];
  entries: number;
  accounts: number;
  statements: { userId: string; month: string; digest: string }[];
  /** SHA-256 over every statement's user, month and digest in order: one line to compare two databases by. */
  statementsDigest: string;
}

/** ledger:verify and every customer's statement digest, on one database (the restored one). */
export async function checkDatabase(databaseUrl: string): Promise<RestoreReport> {
  const database = await createDatabase({ databaseUrl, databasePoolSize: 2, dataDir: "" }, "restore check");
  try {
    const ledger = await verifyLedger(database.db);
    const owners = await queryRows(
      database.db,
      sql`select distinct user_id::text from ledger_accounts where kind = 'wallet' and user_id is not null order by 1`,
      z.object({ user_id: z.string() }),
    );
    const statements: RestoreReport["statements"] = [];
    for (const { user_id: userId } of owners) {
      for (const month of (await findStatementMonths(database.db, userId)).sort()) {
        statements.push({
          userId,
          month,
          digest: (await computeStatementDigest(database.db, userId, month)).digest,
        });
      }
    }
    const hash = createHash("sha256");
    for (const s of statements) hash.update(`${s.userId} ${s.month} ${s.digest}\n`);
    return {
      ledgerOk: ledger.ok,
      problems: ledger.problems,
      entries: ledger.entries,
      accounts: ledger.accounts,
      statements,
      statementsDigest: hash.digest("hex"),
    };
  } finally {
    await database.close();
  }
}
