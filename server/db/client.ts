import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { z } from "zod";
import { trackCommits } from "@/server/db/after-commit";
import { lockEmbeddedDatabase } from "@/server/db/embedded-lock";
import { runMigrations, type SqlClient } from "@/server/db/migrate";
import * as schema from "@/server/db/schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A service function takes either the database or an open transaction. */
export type DbOrTx = Db | Tx;

/** A raw statement's rows did not have the shape its caller declared (a bug: answered as a 500). */
export class RowShapeError extends Error {
  override name = "RowShapeError";
}

/**
 * A raw statement run as a named prepared statement: PostgreSQL parses it once per connection and keeps its
 * plan, instead of parsing and planning it on every call as an unnamed statement (on a transfer's monitoring
 * reads that was ~0.4 ms of PostgreSQL CPU a statement, bench/HISTORY.md). Its text must not vary between
 * calls: only the values do. PGlite runs it as any statement.
 */
export interface NamedSql {
  name: string;
  query: SQL;
}

export const named = (name: string, query: SQL): NamedSql => ({ name, query });

// Drizzle's own way from an `sql` template to text and values; the app's databases use no casing option.
const dialect = new PgDialect();

/**
 * The rows of one raw statement on the database or an open transaction, on PostgreSQL and PGlite alike (both
 * drivers answer `{ rows }`, but Drizzle types the answer per driver). Every row is checked and parsed with the
 * caller's zod schema: a row of another shape throws RowShapeError instead of travelling on under a
 * type it does not have. What the drivers answer through Drizzle: int/smallint/float8/bool/json as numbers,
 * booleans and values; uuid, text and numeric as strings; timestamps and dates as their text (Drizzle keeps
 * them unparsed on both); bigint (count(*) too) as a string on PostgreSQL but a number on PGlite, so a schema
 * casts it in SQL (`::int`, `::text`) or coerces it. The schema is required: a call without one does not compile
 * (generic tooling with no row shape known uses queryRowsUnchecked).
 */
export async function queryRows<S extends z.ZodType>(
  db: DbOrTx,
  query: SQL | NamedSql,
  schema: S,
): Promise<z.output<S>[]> {
  const rows = await rawRows(db, query);
  return rows.map((row, i) => {
    const parsed = schema.safeParse(row);
    if (!parsed.success) {
      throw new RowShapeError(
        `Row ${i + 1} of a query does not match its schema: ${z.prettifyError(parsed.error)}`,
      );
    }
    return parsed.data;
  });
}

/**
 * The rows of one raw statement, trusted as the caller's row type without a check: only for generic tooling whose
 * statements have no shape known here (the abuse suite's `rows` helper runs whatever SQL text a test hands it).
 * Everything else passes a schema to queryRows.
 */
export async function queryRowsUnchecked<T extends object = Record<string, unknown>>(
  db: DbOrTx,
  query: SQL | NamedSql,
): Promise<T[]> {
  return (await rawRows(db, query)) as T[];
}

async function rawRows(db: DbOrTx, query: SQL | NamedSql): Promise<unknown[]> {
  const { rows } = (await (query instanceof SQL
    ? db.execute(query)
    : db._.session
        .prepareQuery(dialect.sqlToQuery(query.query), undefined, query.name, false)
        .execute())) as {
    rows: unknown[];
  };
  return rows;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  kind: "pg" | "pglite";
  /** The PostgreSQL connection string (pg only): a listener connection for cross-instance notifications. */
  url?: string;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Runs one statement outside Drizzle (tests, CLI). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs one statement as a named prepared statement outside Drizzle (a hot path's single round trip): on
   * PostgreSQL it is parsed and planned once per connection; PGlite runs it as an ordinary query.
   */
  prepared<T = Record<string, unknown>>(name: string, text: string, params: unknown[]): Promise<T[]>;
  /** Connections open, idle, and requests waiting for one (for /metrics). */
  poolStats(): PoolStats;
  /**
   * PGlite only: LISTEN on its one in-process backend (on PostgreSQL a listener opens its own connection from
   * `url`, which it can reconnect). Returns the UNLISTEN.
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
}

const CONNECT_TIMEOUT_MS = 5000;
/** /readyz must answer quickly when PostgreSQL does not: probes usually give up after a few seconds. */
const PING_TIMEOUT_MS = 2000;

export function createPgDatabase(
  url: string,
  poolSize = 10,
  queryTimeoutMs = 15_000,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Waiting for a free pool connection (or a new one) gives up too: an exhausted pool answers 503 quickly
    // instead of queueing every request until the client or the load balancer gives up.
    connectionTimeoutMillis: connectTimeoutMs,
    // A partitioned or frozen PostgreSQL answers nothing: without a client-side timeout a request would
    // hang for as long as TCP keeps the dead connection open. The error maps to 503 (isUnavailableError).
    query_timeout: queryTimeoutMs,
    keepAlive: true,
  });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on("error", () => {});
  // Nor one checked out for a transaction: node-postgres emits 'error' on a client whose connection ends, and
  // the pool listens only while a client is idle. The statement in flight fails on its own (and the next one
  // with "not queryable"), the transaction answers 503 retryable, and the client leaves the pool on release.
  // Without this, a failover that cut connections mid-transaction ended every instance at once.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const db = trackCommits(drizzlePg(pool, { schema }) as unknown as Db);
  return {
    db,
    kind: "pg",
    url,
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error("Database ping timeout")), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([pool.query("select 1"), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async migrate() {
      // Its own connection without the query timeout: waiting for another instance's migration lock, or a
      // long index build, is expected here.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      client.on("error", () => {});
      await client.connect();
      try {
        await runMigrations(client as SqlClient, { lock: true, concurrently: true });
      } finally {
        await client.end();
      }
    },
    async close() {
      await pool.end();
    },
    async query(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    async prepared(name, text, params) {
      return (await pool.query({ name, text, values: params })).rows;
    },
    poolStats() {
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
  };
}

export function wrapPglite(client: PGlite): Database {
  const db = trackCommits(drizzlePglite(client, { schema }) as unknown as Db);
  return {
    db,
    kind: "pglite",
    async ping() {
      await client.query("select 1");
    },
    async migrate() {
      await runMigrations(client as unknown as SqlClient, { lock: false });
    },
    async close() {
      if (!client.closed) await client.close();
    },
    async query<T>(text: string, params?: unknown[]) {
      return (await client.query<T>(text, params as unknown[])).rows;
    },
    async prepared<T>(_name: string, text: string, params: unknown[]) {
      return (await client.query<T>(text, params)).rows;
    },
    // One embedded connection that queues its own queries: there is no pool to report on.
    poolStats() {
      return { total: 1, idle: 1, waiting: 0 };
    },
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return () => unlisten();
    },
  };
}

/**
 * PGlite runs one backend inside this process, and PostgreSQL zeroes its shared memory at start, so every
 * megabyte of shared_buffers (initdb writes 128MB) and of per-connection slots is resident from the first
 * second. 16MB of buffers is ample for one machine's data (the files stay in the OS page cache), and one
 * backend needs few connection slots: together ~140 MiB less resident memory at idle.
 */
const PGLITE_SETTINGS = ["-c", "shared_buffers=16MB", "-c", "max_connections=5"];

/**
 * The extensions every embedded database loads (PostgreSQL ships them as contrib): pg_trgm backs the
 * back-office search's trigram indexes (migration 0051, decision 061), so a database without it fails to migrate.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Creates the embedded cluster (initdb) in a short-lived child process. initdb grows PGlite's wasm memory
 * to ~650 MiB, and wasm memory never shrinks while its instance lives: done in this process, the first
 * start idled at that size until the next restart; in a child it is returned to the system when the child
 * exits, and this process opens the cluster as on any later start.
 */
async function initialiseClusterInChild(dir: string): Promise<void> {
  const pglite = import.meta.resolve("@electric-sql/pglite");
  const script = `
    const { PGlite } = await import(${JSON.stringify(pglite)});
    const db = await PGlite.create(${JSON.stringify(dir)}, {
      startParams: [...PGlite.defaultStartParams, ...${JSON.stringify(PGLITE_SETTINGS)}],
    });
    await db.close();`;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], (error, _stdout, stderr) =>
      error
        ? reject(new Error(`Creating the embedded database in ${dir} failed: ${stderr || error.message}`))
        : resolve(),
    );
  });
}

/**
 * Embedded PostgreSQL (PGlite) kept in $DATA_DIR/pg: the no-services default for one machine. One process
 * at a time: `holder` names this one ("server", "CLI command (seed:demo)") in the refusal another opener
 * prints while it holds $DATA_DIR/pg.lock (DatabaseInUseError).
 */
export async function createPgliteDatabase(dataDir: string, holder = "server"): Promise<Database> {
  const lock = await lockEmbeddedDatabase(dataDir, holder);
  try {
    const dir = path.join(dataDir, "pg");
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await initialiseClusterInChild(dir);
    const database = wrapPglite(
      await PGlite.create(dir, {
        startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
        extensions: PGLITE_EXTENSIONS,
      }),
    );
    const close = database.close;
    database.close = async () => {
      try {
        await close();
      } finally {
        lock.release();
      }
    };
    return database;
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** PostgreSQL when DATABASE_URL is set (no lock: it handles concurrent clients), else the embedded database. */
export async function createDatabase(
  config: {
    databaseUrl?: string;
    databasePoolSize: number;
    databaseQueryTimeoutMs?: number;
    databaseConnectTimeoutMs?: number;
    dataDir: string;
  },
  holder = "server",
) {
  return config.databaseUrl
    ? createPgDatabase(
        config.databaseUrl,
        config.databasePoolSize,
        config.databaseQueryTimeoutMs,
        config.databaseConnectTimeoutMs,
      )
    : createPgliteDatabase(config.dataDir, holder);
}
