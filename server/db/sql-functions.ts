import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SqlClient } from "@/server/db/migrate";
import { PROJECT_ROOT } from "@/server/lib/project-root";

/**
 * The SQL functions' source (decision 019): one function or a small family per file, read from the source tree
 * like the migrations, so the compiled server has the same single copy.
 */
export const FUNCTIONS_DIR = path.join(PROJECT_ROOT, "server/db/functions");

const CREATE_FUNCTION = /create\s+(?:or\s+replace\s+)?function\s+([a-z_][a-z0-9_]*)\s*\(/gi;

export interface FunctionFile {
  file: string;
  hash: string;
  /** The function names the file creates: every overload of these that the file does not create is dropped. */
  names: string[];
  statements: string[];
}

export function readFunctionFiles(dir = FUNCTIONS_DIR): FunctionFile[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      return {
        file,
        hash: createHash("sha256").update(text).digest("hex"),
        names: [...new Set([...text.matchAll(CREATE_FUNCTION)].map((m) => m[1]!.toLowerCase()))],
        statements: text
          .split("--> statement-breakpoint")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    });
}

/**
 * Applies the function files whose hash differs from the one recorded at their last application (all of them
 * after a migration ran: it may have dropped or changed what they use), in one transaction, inside the caller's
 * migration lock. Each file's CREATE OR REPLACE statements run as written; then any other signature of a name
 * the file creates (an overload this run did not touch: its pg_proc row was not written by this transaction)
 * is dropped, so a changed argument list leaves no old function behind. Returns the files applied.
 */
export async function applySqlFunctions(
  client: SqlClient,
  { all = false, dir = FUNCTIONS_DIR }: { all?: boolean; dir?: string } = {},
): Promise<string[]> {
  await client.query(
    "create table if not exists pillar_functions (file text primary key, hash text not null, applied_at timestamptz not null default now())",
  );
  const recorded = new Map(
    (await client.query("select file, hash from pillar_functions")).rows.map((r) => [
      String(r.file),
      String(r.hash),
    ]),
  );
  const changed = readFunctionFiles(dir).filter((f) => all || recorded.get(f.file) !== f.hash);
  if (changed.length === 0) return [];
  await client.query("begin");
  try {
    // As pg_dump does: a LANGUAGE sql body may call a function from a file applied after it.
    await client.query("set local check_function_bodies = off");
    for (const f of changed) {
      for (const statement of f.statements) await client.query(statement);
      const stale = await client.query(
        `select p.oid::regprocedure::text as signature from pg_proc p
          where p.pronamespace = current_schema()::regnamespace and p.proname = any($1::text[])
            and p.xmin <> pg_current_xact_id()::xid`,
        [f.names],
      );
      for (const { signature } of stale.rows) await client.query(`drop function ${String(signature)}`);
      await client.query(
        `insert into pillar_functions (file, hash) values ($1, $2)
           on conflict (file) do update set hash = excluded.hash, applied_at = now()`,
        [f.file, f.hash],
      );
    }
    await client.query("commit");
  } catch (err) {
    await client.query("rollback");
    throw new Error(
      `Applying the SQL functions (${changed.map((f) => f.file).join(", ")}) failed: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return changed.map((f) => f.file);
}
