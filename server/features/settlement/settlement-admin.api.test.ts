import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SETTLEMENT_ADMIN_MESSAGES } from "@/contract/settlement";
import { expectLedgerCleanAfterEach } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, setUpAdminUser } from "@/tests/support/users";

// Manual settlement (no CHAIN_RPC_URL): the Settlement tab says so, and nothing on chain can be reconciled or
// sped up. Chain mode is tested on a real node in tests/chain/settlement-tab.chain.test.ts and
// tests/chain/reconciliation.chain.test.ts.
const t = setUpTestApp();
const owner = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

describe("Settlement tab without a chain", () => {
  it("tells finance and owners that settlement is manual", async () => {
    const finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    for (const cookie of [owner.cookie, finance.cookie]) {
      const res = await t.app.inject({ method: "GET", url: "/api/admin/settlement", headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ mode: "manual", message: SETTLEMENT_ADMIN_MESSAGES.manual });
    }
    const reports = await t.app.inject({
      method: "GET",
      url: "/api/admin/settlement/reconciliations",
      headers: { cookie: finance.cookie },
    });
    expect(reports.json()).toEqual({ reports: [] });
  });

  it("refuses Run now with manual_settlement and knows no payout to speed up, writing nothing", async () => {
    const finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const run = await t.app.inject({
      method: "POST",
      url: "/api/admin/settlement/reconciliations",
      headers: { cookie: finance.cookie },
    });
    expect(run.statusCode).toBe(409);
    expect(run.json()).toMatchObject({ reason: "manual_settlement", chainSettlement: true });
    const speed = await t.app.inject({
      method: "POST",
      url: `/api/admin/settlement/payouts/${randomUUID()}/speed-up`,
      headers: { cookie: finance.cookie },
    });
    expect(speed.statusCode).toBe(404);
    expect(await t.database.query("select 1 from reconciliation_reports")).toEqual([]);
    expect(
      await t.database.query(
        "select 1 from audit_log where action in ('settlement.reconcile', 'payout.speed_up')",
      ),
    ).toEqual([]);
  });

  it("refuses support, compliance and customers", async () => {
    const who = await Promise.all([
      createVerifiedUser(t.database, { staffRoles: ["support"] }),
      createVerifiedUser(t.database, { staffRoles: ["compliance"] }),
      createVerifiedUser(t.database),
    ]);
    for (const user of who) {
      for (const [method, url] of [
        ["GET", "/api/admin/settlement"],
        ["POST", "/api/admin/settlement/reconciliations"],
        ["GET", `/api/admin/settlement/reconciliations/${randomUUID()}/report.csv`],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: { cookie: user.cookie } });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
  });
});
