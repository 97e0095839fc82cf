import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SqlClient } from "@/server/db/migrate";
import { applySqlFunctions, readFunctionFiles } from "@/server/db/sql-functions";
import { setUpTestApp } from "@/tests/support/test-app";

const t = setUpTestApp();

// The runner opens its own transaction, so it needs one session: a connection of its own on PostgreSQL; PGlite
// is one session already.
let client: SqlClient;
let closeClient = async () => {};
beforeAll(async () => {
  if (t.database.url) {
    const connection = new pg.Client({ connectionString: t.database.url });
    await connection.connect();
    client = connection as SqlClient;
    closeClient = () => connection.end();
  } else {
    client = { query: async (text, params) => ({ rows: await t.database.query(text, params) }) };
  }
});
afterAll(() => closeClient());

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function functionsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-functions-"));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

const signatures = async (name: string) =>
  (
    await t.database.query<{ signature: string }>(
      "select p.oid::regprocedure::text as signature from pg_proc p where p.proname = $1 order by 1",
      [name],
    )
  ).map((r) => r.signature);

const PROBE_INT = `-- a probe
CREATE OR REPLACE FUNCTION pillar_probe(p integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT p + 1 $$;`;
const PROBE_TEXT = `CREATE OR REPLACE FUNCTION pillar_probe(p text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT p || '!' $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pillar_probe_twin() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT pillar_probe(1) $$;`;

describe("the SQL function files (decision 019)", () => {
  it("has applied every file at start and records its hash; applying again changes nothing", async () => {
    const recorded = await t.database.query<{ file: string; hash: string }>(
      "select file, hash from pillar_functions order by file",
    );
    expect(recorded).toEqual(readFunctionFiles().map(({ file, hash }) => ({ file, hash })));
    expect(await applySqlFunctions(client)).toEqual([]);
    expect(await signatures("create_transfer_request")).toEqual(["create_transfer_request(jsonb)"]);
  });

  it("applies a file again only when its text changed, and drops a signature the file no longer creates", async () => {
    const dir = functionsDir({ "probe.sql": PROBE_INT });
    expect(await applySqlFunctions(client, { dir })).toEqual(["probe.sql"]);
    expect(await t.database.query("select pillar_probe(41) as v")).toEqual([{ v: 42 }]);
    expect(await applySqlFunctions(client, { dir })).toEqual([]);

    fs.writeFileSync(path.join(dir, "probe.sql"), PROBE_TEXT);
    expect(await applySqlFunctions(client, { dir })).toEqual(["probe.sql"]);
    expect(await signatures("pillar_probe")).toEqual(["pillar_probe(text)"]);
    // A function of the same family created in the same file stays, even though its body is unchanged next time.
    fs.writeFileSync(path.join(dir, "probe.sql"), `${PROBE_TEXT}\n-- reworded`);
    expect(await applySqlFunctions(client, { dir })).toEqual(["probe.sql"]);
    expect(await signatures("pillar_probe_twin")).toEqual(["pillar_probe_twin()"]);
    expect(await t.database.query("select pillar_probe('x') as v")).toEqual([{ v: "x!" }]);
  });

  it("applies every file after a migration ran, changed or not", async () => {
    const dir = functionsDir({ "probe.sql": PROBE_INT });
    await applySqlFunctions(client, { dir });
    expect(await applySqlFunctions(client, { dir, all: true })).toEqual(["probe.sql"]);
  });

  it("changes nothing when a file fails: the old functions and hashes stay", async () => {
    const dir = functionsDir({ "a-probe.sql": PROBE_INT });
    await applySqlFunctions(client, { dir });
    fs.writeFileSync(path.join(dir, "a-probe.sql"), PROBE_TEXT);
    fs.writeFileSync(path.join(dir, "b-broken.sql"), "CREATE OR REPLACE FUNCTION pillar_broken( RETURNS;");
    await expect(applySqlFunctions(client, { dir })).rejects.toThrow(
      /Applying the SQL functions \(a-probe\.sql, b-broken\.sql\) failed/,
    );
    expect(await signatures("pillar_probe")).toEqual(["pillar_probe(integer)"]);
    const recorded = await t.database.query<{ file: string }>(
      "select file from pillar_functions where file in ('a-probe.sql', 'b-broken.sql')",
    );
    expect(recorded).toEqual([{ file: "a-probe.sql" }]);
  });
});
