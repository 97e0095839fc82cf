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

  it("knows no payout to record as settled outside Pillar and no difference to acknowledge, writing nothing", async () => {
    const finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const post = (url: string, payload: object) =>
      t.app.inject({ method: "POST", url, headers: { cookie: finance.cookie }, payload });
    const outside = await post(`/api/admin/settlement/payouts/${randomUUID()}/settled-outside`, {
      reason: "Paid from the treasury wallet",
    });
    expect(outside.statusCode, outside.body).toBe(404);
    const acknowledged = await post(
      `/api/admin/settlement/reconciliations/${randomUUID()}/items/1/acknowledge`,
      { reason: "Known sweep" },
    );
    expect(acknowledged.statusCode, acknowledged.body).toBe(404);
    // Bad input is a 400 naming the field, before anything is looked up.
    const noReason = await post(`/api/admin/settlement/payouts/${randomUUID()}/settled-outside`, {
      reason: "",
      txHash: "0x1234",
    });
    expect(noReason.statusCode).toBe(400);
    expect(await t.database.query("select 1 from approvals")).toEqual([]);
    expect(await t.database.query("select 1 from reconciliation_acknowledgments")).toEqual([]);
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
        ["POST", `/api/admin/settlement/payouts/${randomUUID()}/settled-outside`],
        ["POST", `/api/admin/settlement/reconciliations/${randomUUID()}/items/1/acknowledge`],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: { cookie: user.cookie } });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
  });
});
