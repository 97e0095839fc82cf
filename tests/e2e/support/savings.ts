import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { programArgs } from "@/tests/support/program";

/** Operations' own command, as the README gives it (`npm run cli -- <args>`), on the e2e server's database. */
export function runCli(databaseUrl: string, args: string[]): string {
  return execFileSync(process.execPath, [...programArgs("scripts/cli.ts"), ...args], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "test", LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
}

/**
 * `days` pass for one savings account: it opened, and its money arrived, that many days earlier. The accrual reads
 * a day's postings by their time, so the savings postings move back with it (the checking side keeps its history).
 */
export async function backdateSavings(databaseUrl: string, accountId: string, days: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `update savings_accounts set opened_on = opened_on - $2::int, opened_at = opened_at - make_interval(days => $2)
       where account_id = $1`,
      [accountId, days],
    );
    await db.query(
      "update postings set created_at = created_at - make_interval(days => $2) where account_id = $1",
      [accountId, days],
    );
  } finally {
    await db.end();
  }
}
