import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_MESSAGES } from "@/contract/compliance";
import { programArgs } from "@/tests/support/program";
import { REAL_OFAC_DIR } from "@/tests/support/real-ofac-list";
import { createTestDatabase } from "@/tests/support/test-database";

/**
 * `npm run cli -- sanctions:load` and `sanctions:search` run as an operator runs them, as child processes, against
 * the real OFAC extract of 2024-05-03: on the PostgreSQL in DATABASE_URL, or (without one) the embedded database
 * in a data directory of their own.
 */
const root = path.resolve(import.meta.dirname, "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-sanctions-cli-"));
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  if (process.env.DATABASE_URL) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], stdin = ""): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "", LOG_LEVEL: "silent" };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...programArgs("scripts/cli.ts"), ...args], { cwd: root, env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end(stdin);
  });
}

const MLADIC = 7744;

describe("sanctions:search and sanctions:load", () => {
  it("says no list is loaded before one is", { timeout: 120_000 }, async () => {
    const result = await cli(["sanctions:search"], `{"name": "Ratko Mladic"}\n`);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out.trim())).toEqual({ error: SEARCH_MESSAGES.noList });
  });

  it("loads the real list, runs its re-screen to the end with the customers it finds, and prints the report", {
    timeout: 300_000,
  }, async () => {
    if (database) {
      // A customer of long ago with the listed name and date of birth, and a namesake born decades later.
      await database.query(
        `with u as (
           insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
           select 'cli-' || g || '@pillar.test', 'Ratko', 'Mladic', 'cli' || g, 'x', true
           from generate_series(1, 2) g returning id, email)
         insert into kyc_applications (user_id, account_type, first_name, last_name, date_of_birth, street, city,
           state, zip_code, address, ssn_ciphertext, ssn_index, ssn_last4)
         select id, 'personal', 'Ratko', 'Mladic',
           case when email like 'cli-1@%' then date '1943-03-12' else date '1991-01-01' end,
           '1 Main St', 'New York', 'NY', '10001', '1 Main St, New York, NY 10001', 'x', md5(email), '1234'
         from u`,
      );
    }
    const result = await cli(["sanctions:load", REAL_OFAC_DIR]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/List version 1 is active: 14965 entries/);
    expect(result.out).toMatch(
      database
        ? /Re-screened 2 customer\(s\) and 0 address\(es\): 1 new hit\(s\)\./
        : /Re-screened 0 customer\(s\)/,
    );
    if (database) {
      const hits = await database.query<{ ent_num: number; screening_point: string; email: string }>(
        `select h.ent_num, h.screening_point, u.email from compliance_hits h join users u on u.id = h.user_id`,
      );
      expect(hits).toEqual([{ ent_num: MLADIC, screening_point: "rescreen", email: "cli-1@pillar.test" }]);
    }
  });

  it("prints one JSON line per input line with the matches at or above the threshold, and an error line for a bad one", {
    timeout: 120_000,
  }, async () => {
    const input = [
      JSON.stringify({ name: "Ratko Mladic", dob: "1943-03-12", type: "person" }),
      "not json",
      JSON.stringify({ name: "Ratko Mladic", dob: "1943-02-30" }),
      "",
      JSON.stringify({ name: "Jane Q. Ordinary-Customer", dob: null, type: null }),
      JSON.stringify({ name: "Ratko Mladic", type: "vessel" }),
      JSON.stringify({ name: "Ratko Mladic" }),
    ].join("\n");
    const result = await cli(["sanctions:search"], `${input}\n`);
    expect(result.code).toBe(1);
    const lines = result.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ line: 1, name: "Ratko Mladic", dob: "1943-03-12", type: "person" });
    expect(lines[0].matches[0]).toMatchObject({ entNum: MLADIC, listedName: "MLADIC, Ratko" });
    expect(lines[0].matches[0].score).toBeGreaterThanOrEqual(lines[0].threshold);
    expect(lines[1]).toEqual({ line: 2, error: "Not JSON: write one object a line" });
    expect(lines[2]).toEqual({ line: 3, error: `dob: ${SEARCH_MESSAGES.dob}` });
    expect(lines[3]).toMatchObject({ line: 5, matches: [] });
    expect(lines[4]).toEqual({ line: 6, error: `type: ${SEARCH_MESSAGES.type}` });
    expect(lines[5].matches.map((m: { entNum: number }) => m.entNum)).toContain(MLADIC);
  });
});
