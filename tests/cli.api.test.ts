import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAFF_MANAGEMENT_MESSAGES } from "@/contract/staff";
import { programArgs } from "@/tests/support/program";
import { createTestDatabase } from "@/tests/support/test-database";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-cli-"));
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

beforeAll(async () => {
  if (process.env.DATABASE_URL) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "", LOG_LEVEL: "silent" };
  try {
    const { stdout, stderr } = await run(process.execPath, [...programArgs("scripts/cli.ts"), ...args], {
      cwd: root,
      env,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe("operator CLI", () => {
  // The first command creates the database (on PGlite: initdb in a child process, then the migrations).
  it("verifies a clean ledger", { timeout: 120_000 }, async () => {
    const result = await cli("ledger:verify");
    expect(result.out).toContain("Ledger verified: no drift.");
    expect(result.code).toBe(0);
  });

  it("sweeps expired rows on demand", async () => {
    const result = await cli("housekeeping:sweep");
    expect(result.out).toMatch(/Deleted \d+ expired session\(s\), \d+ one-time code\(s\)/);
    expect(result.code).toBe(0);
  });

  // Three CLI processes (seed, seed again, verify), each starting the app and hashing every demo password with
  // argon2id: ~11 s of CPU that a loaded CI machine stretches past the API layer's 30 s default.
  it("seeds the demo accounts through the app's routes once, and leaves a balanced ledger", {
    timeout: 120_000,
  }, async () => {
    const first = await cli("seed:demo");
    expect(first.out).toContain("Demo data created (password for every account: Harbor-Quartz-Demo-2026)");
    expect(first.code).toBe(0);
    if (database) {
      const rows = await database.query<{
        email: string;
        staff_roles: string[];
        balance: string | null;
        kyc: string | null;
        phone_number: string;
      }>(
        `select u.email, u.staff_roles, w.balance::text as balance, k.status as kyc, u.phone_number
           from users u
           left join ledger_accounts w on w.user_id = u.id and w.kind = 'wallet'
           left join kyc_applications k on k.user_id = u.id
          where u.email like 'demo-%@pillar.test' order by u.email`,
      );
      expect(rows).toEqual([
        // Each demo user has a number of its own, stored in E.164.
        {
          email: "demo-admin@pillar.test",
          staff_roles: ["owner"],
          balance: "0",
          kyc: null,
          phone_number: "+12125550101",
        },
        {
          email: "demo-customer@pillar.test",
          staff_roles: [],
          balance: "94540",
          kyc: "approved",
          phone_number: "+14155550132",
        },
        {
          email: "demo-pending@pillar.test",
          staff_roles: [],
          balance: "0",
          kyc: "pending",
          phone_number: "+13125550178",
        },
      ]);
    }
    const again = await cli("seed:demo");
    expect(again.out).toContain("Demo data is already here");
    expect(again.code).toBe(0);
    const verify = await cli("ledger:verify");
    expect(verify.out).toContain("Ledger verified: no drift.");
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "exits 1 and names the account when a cached balance drifts",
    // Five CLI runs, each a cold tsx start: seconds apiece on a busy machine, like the tests above.
    { timeout: 120_000 },
    async () => {
      const [user] = await database!.query<{ id: string }>(
        "insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified) values ('cli@example.com','C','L','cli_user','x',true) returning id",
      );
      await database!.query(
        "insert into ledger_accounts (code, kind, user_id, balance) values ($1, 'wallet', $2, 500)",
        [`wallet:${user.id}`, user.id],
      );
      const result = await cli("ledger:verify");
      expect(result.code).toBe(1);
      expect(result.out).toContain(`wallet:${user.id}: cached balance 500 but postings sum to 0`);
      // Money on the account: staff never bank (docs/architecture.md "Staff roles"), so the CLI's grant is
      // refused like the owner's.
      const refused = await cli("admin:grant", "CLI@example.com");
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(STAFF_MANAGEMENT_MESSAGES.moneyInFlight);
      const [colleague] = await database!.query<{ id: string }>(
        "insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified) values ('cli-staff@example.com','C','S','cli_staff','x',true) returning id",
      );
      const grant = await cli("admin:grant", "CLI-staff@example.com");
      expect(grant.code).toBe(0);
      const [row] = await database!.query<{ is_admin: boolean }>("select is_admin from users where id = $1", [
        colleague.id,
      ]);
      expect(row.is_admin).toBe(true);
      const staff = await cli("staff:grant", "cli-staff@example.com", "finance", "compliance");
      expect(staff.code).toBe(0);
      expect(staff.out).toContain("now holds: compliance, finance, owner");
      const badRole = await cli("staff:grant", "cli-staff@example.com", "janitor");
      expect(badRole.code).toBe(1);
      expect(badRole.out).toContain("one or more roles out of: support, compliance, finance, owner");
      const [roles] = await database!.query<{ staff_roles: string[] }>(
        "select staff_roles from users where id = $1",
        [colleague.id],
      );
      expect(roles.staff_roles).toEqual(["compliance", "finance", "owner"]);
    },
  );

  // Form 1099-INT (decision 070): refused for a year not over; a closed year with no savers issues nothing and
  // writes a Publication 1220 file of T, A, C and F records, 750 bytes each.
  it("runs the 1099-INT year and writes its Publication 1220 file", { timeout: 60_000 }, async () => {
    const open = await cli("tax:1099", "--year", String(new Date().getUTCFullYear() + 1));
    expect(open.out).toContain("That tax year is not over yet");
    expect(open.code).toBe(1);
    const file = path.join(dataDir, "1099-2001.txt");
    const done = await cli("tax:1099", "--year", "2001", "--pub1220", file, "--test");
    expect(done.out).toContain("Form 1099-INT 2001, run 1: 0 form(s) issued, 0 correction(s)");
    expect(done.out).toContain(`Publication 1220 file ${file}: 0 payee(s), $0.00.`);
    expect(done.code).toBe(0);
    const text = fs.readFileSync(file, "ascii");
    expect(text.length).toBe(4 * 750);
    expect([0, 1, 2, 3].map((i) => text[i * 750])).toEqual(["T", "A", "C", "F"]);
  });

  it("refuses an unknown command with exit code 2", async () => {
    const result = await cli("launch:rockets");
    expect(result.code).toBe(2);
    expect(result.out).toContain("Unknown command: launch:rockets");
  });
});
