import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  hasOpenCase,
  isFrozen,
  isPlainCustomer,
  kycStatusOf,
  SCALE_PASSWORD,
  type ScaleSeedReport,
  STAFF_ACTIONS_TOTAL,
  scaleAccountNumber,
  scaleEmail,
  seedScale,
  WHALE_ADDRESSES,
} from "@/scripts/bench/scale/seed";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import type { Database } from "@/server/db/client";
import { verifyLedger } from "@/server/lib/ledger";
import { createTestDatabase } from "@/tests/support/test-database";
import { logIn } from "@/tests/support/users";

// The scale seeder writes with PostgreSQL's session_replication_role and generate_series over a pg connection
// string; embedded PGlite has no URL to hand it (and the bench it feeds runs on PostgreSQL only).
const onPostgres = Boolean(process.env.DATABASE_URL);
const CUSTOMERS = 2_000;

describe.skipIf(!onPostgres)(
  "the scale seeder (PostgreSQL only: it seeds through a connection string)",
  () => {
    let database: Database & { url?: string };
    let app: App;
    let dataDir: string;
    let first: ScaleSeedReport;
    let second: ScaleSeedReport;
    const count = async (text: string, params: unknown[] = []) => {
      const [row] = await database.query<{ n: string | number }>(text, params);
      return Number(row!.n);
    };

    beforeAll(async () => {
      database = await createTestDatabase();
      // Two steps: the second reuses the first's rows and adds only the rest.
      first = await seedScale(database.url!, { customers: CUSTOMERS / 2 });
      second = await seedScale(database.url!, { customers: CUSTOMERS });
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-scale-"));
      const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
      app = await buildApp({ config, database }, { logger: false });
    }, 600_000);
    afterAll(async () => {
      await app?.close();
      await database?.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("adds only the customers a step lacks, and leaves a ledger with no drift", async () => {
      expect(first).toMatchObject({ customers: CUSTOMERS / 2, added: CUSTOMERS / 2 });
      expect(second).toMatchObject({ customers: CUSTOMERS, added: CUSTOMERS / 2 });
      expect(await count(`select count(*) as n from users where pillar_tag ~ '^scale_[0-9]+$'`)).toBe(
        CUSTOMERS,
      );
      const again = await seedScale(database.url!, { customers: CUSTOMERS });
      expect(again.added).toBe(0);
      const ledger = await verifyLedger(database.db);
      expect(ledger.problems).toEqual([]);
      expect(ledger.ok).toBe(true);
    });

    it("gives the customers the issue's shape", async () => {
      // ~60 history rows each over three years: 50 of their own plus the $tag payments others made them.
      const [shape] = await database.query<{ median: number; first: Date; last: Date }>(`
      select percentile_cont(0.5) within group (order by c) as median, min(first) as first, max(last) as last
      from (select count(*) as c, min(created_at) as first, max(created_at) as last
            from transactions group by user_id) x`);
      expect(shape!.median).toBeGreaterThanOrEqual(55);
      expect(shape!.median).toBeLessThanOrEqual(65);
      const years = (shape!.last.getTime() - shape!.first.getTime()) / (365 * 86_400_000);
      expect(years).toBeGreaterThan(2.9);

      const expected = (pick: (n: number) => boolean) =>
        Array.from({ length: CUSTOMERS }, (_, n) => n).filter(pick);
      const notApproved = expected((n) => kycStatusOf(n) !== "approved");
      expect(notApproved.length / CUSTOMERS).toBeCloseTo(0.05, 2);
      expect(
        await count(`select count(*) as n from kyc_applications k join users u on u.id = k.user_id
                   where k.status <> 'approved' and u.pillar_tag ~ '^scale_[0-9]+$'`),
      ).toBe(notApproved.length);
      expect(await count("select count(*) as n from users where frozen_at is not null")).toBe(
        expected(isFrozen).length,
      );
      expect(expected(isFrozen).length / CUSTOMERS).toBeCloseTo(0.02, 2);
      // 5 % of all customers send to the whale addresses.
      const whaleSenders = await count(
        "select count(distinct user_id) as n from transfer_requests where crypto_address = any($1::text[])",
        [WHALE_ADDRESSES],
      );
      expect(whaleSenders / CUSTOMERS).toBeCloseTo(0.05, 2);
      expect(await count("select count(*) as n from compliance_cases where status = 'open'")).toBe(
        expected(hasOpenCase).length,
      );
      expect(
        await count(`select count(*) as n from audit_log a join users s on s.id = a.actor_id
                   where s.email like 'scale-staff-%' and a.action not in ('kyc.approve', 'kyc.reject', 'customer.chat_opened')`),
      ).toBe(STAFF_ACTIONS_TOTAL);
      for (const table of [
        "chat_messages",
        "notifications",
        "sessions",
        "user_events",
        "events",
        "deposit_addresses",
      ]) {
        expect(await count(`select count(*) as n from ${table}`), table).toBeGreaterThan(0);
      }
      // What the triggers keep, though the seed wrote with them off.
      expect(
        await count(`select count(*) as n from admin_stats s where s.transactions + (select coalesce(sum(transactions), 0)
                     from admin_stats_deltas) = (select count(*) from transactions)
                     and s.customers = (select count(*) from users where not is_admin)`),
      ).toBe(1);
      expect(await count("select count(*) as n from address_senders")).toBe(
        await count(
          "select count(*) as n from (select distinct lower(crypto_address), user_id from transfer_requests where user_id is not null) t",
        ),
      );
    });

    it("lets a seeded customer sign in and read the dashboard, a deep history page, statements and the CSV", async () => {
      const n = Array.from({ length: CUSTOMERS }, (_, i) => i).find((i) => i > 500 && isPlainCustomer(i))!;
      const cookie = await logIn(app, scaleEmail(n), SCALE_PASSWORD);
      const get = (url: string) => app.inject({ method: "GET", url, headers: { cookie } });

      const summary = await get("/api/account/summary");
      expect(summary.statusCode, summary.body).toBe(200);
      const [wallet] = await database.query<{ balance: string }>(
        "select a.balance::text as balance from ledger_accounts a join users u on u.id = a.user_id where u.email = $1",
        [scaleEmail(n)],
      );
      expect(String(summary.json().balanceCents)).toBe(wallet!.balance);
      expect(summary.json().accountRequest.accountNumber).toContain(scaleAccountNumber(n).slice(-4));
      expect(summary.json().canSendMoney).toBe(true);

      // Walk the history to its oldest page by the keyset cursor: every row once, three years back.
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const page = await get(
          `/api/transactions?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        expect(page.statusCode, page.body).toBe(200);
        for (const item of page.json().items as { id: string }[]) seen.add(item.id);
        cursor = page.json().nextCursor;
      } while (cursor);
      const rows = await count(
        "select count(*) as n from transactions t join users u on u.id = t.user_id where u.email = $1",
        [scaleEmail(n)],
      );
      expect(seen.size).toBe(rows);

      const statements = await get("/api/statements");
      expect(statements.statusCode, statements.body).toBe(200);
      const months = statements.json().months as string[];
      expect(months.length).toBeGreaterThan(30);
      const pdf = await get(`/api/statements/${months[months.length - 1]}.pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

      const csv = await get("/api/transactions/export.csv");
      expect(csv.statusCode).toBe(200);
      expect(csv.body.trim().split("\n").length).toBe(rows + 1);
    });
  },
);
