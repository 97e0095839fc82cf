import { eq } from "drizzle-orm";
import { type Address, createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo, ReconciliationDetail, ReconciliationReport } from "@/contract/settlement";
import { transferRequests } from "@/server/db/schema";
import { chainClient } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runPayoutPass } from "@/server/features/settlement/payout-worker";
import { runReconciliation } from "@/server/features/settlement/reconciliation";
import { findWallet } from "@/server/lib/ledger";
import { ANVIL_KEYS, chainEnv, setUpTestChain } from "@/tests/support/anvil";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerClean,
  requestTransfer,
} from "@/tests/support/money";
import { enrolTotp, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// Reconciliation on a real anvil and real PostgreSQL (decision 038): the chain at CHAIN_CONFIRMATIONS depth
// against the ledger. Clean after a payout and a deposit; a transfer out of the hot wallet that Pillar did not
// make is found, reported and counted in /metrics. Every test ends with the ledger check.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);

describe.skipIf(!process.env.DATABASE_URL)("Reconciliation of the chain with the ledger on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => chainEnv(chain));
  const config = () => t.app.deps.config.chain!;
  let admin: SignedInUser;
  let finance: SignedInUser;

  beforeAll(async () => {
    admin = await createAdminUser(t.database);
    finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    await chain.mint(hot.address, 100_000_000_000n); // $100,000
  });
  afterEach(async () => {
    await expectLedgerClean(t.database);
  });

  const runNow = async (as: SignedInUser = finance) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/settlement/reconciliations",
      headers: { cookie: as.cookie },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ReconciliationReport;
  };
  const detailOf = async (id: string) => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/settlement/reconciliations/${id}`,
      headers: { cookie: finance.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReconciliationDetail;
  };
  const metric = async (area: string, name = "reconciliation_differences") => {
    const res = await t.app.inject({ method: "GET", url: "/metrics" });
    const line = res.body.split("\n").find((l) => l.startsWith(`${name}{area="${area}"}`));
    return line ? Number(line.split(" ").pop()) : Number.NaN;
  };
  /** USDC out of the hot wallet in a transaction Pillar did not sign, mined and read at depth. */
  const behindPillarsBack = async (units: bigint) => {
    const wallet = createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      account: hot,
    });
    const hash = await wallet.writeContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "transfer",
      args: [privateKeyToAccount(generatePrivateKey()).address, units],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await chain.mine(3);
    return hash.toLowerCase();
  };

  /** A payout of $50 end to end: requested, approved, sent, confirmed, captured. */
  async function settledPayout() {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "50.00", cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    for (let i = 0; i < 10; i += 1) {
      await runPayoutPass(t.database.db, config(), {
        sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold,
      });
      const [row] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
      if (row!.status === "completed") return { id, to };
      await chain.mine(1);
    }
    throw new Error("the payout did not complete");
  }

  /** A $25.00 deposit (plus dust) to a customer's address, credited by the watcher. */
  async function creditedDeposit() {
    const customer = await createApprovedCustomer(t.database);
    const info = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    const { address } = info.json() as Extract<DepositInfo, { mode: "chain" }>;
    await watchDepositsOnce(t.database.db, config(), chainClient(config()));
    await chain.mint(address as Address, 25_000_123n);
    for (let i = 0; i < 6; i += 1) {
      await chain.mine(1);
      await watchDepositsOnce(t.database.db, config(), chainClient(config()));
    }
    expect((await findWallet(t.database.db, customer.user.id))?.balance).toBe(2500);
    return customer;
  }

  it("is clean after a payout and a deposit, and counts no difference in /metrics", async () => {
    await settledPayout();
    await creditedDeposit();
    await chain.mine(3);
    const report = await runNow();
    expect(report).toMatchObject({ status: "clean", differences: 0, trigger: "staff" });
    expect(report.requestedBy).toBe(finance.user.email);
    expect(report.hotOnChainUsdc).toBe(report.hotExpectedUsdc);
    // $100,000 less the payout's net ($50 less the $1 fee).
    expect(report.hotOnChainUsdc).toBe("99951.000000");
    const { items } = await detailOf(report.id);
    expect(items).toEqual([]);
    for (const area of ["hot_wallet", "payouts", "deposits"]) expect(await metric(area)).toBe(0);
    // The run is audited with who asked.
    const audit = await t.database.query<{ actor_id: string }>(
      "select actor_id from audit_log where action = 'settlement.reconcile' and target_id = $1",
      [report.id],
    );
    expect(audit).toEqual([{ actor_id: finance.user.id }]);
    // A second run reads only the new blocks and is still clean.
    await chain.mine(2);
    expect((await runNow()).status).toBe("clean");
  });

  it("shows a payout confirmed on chain and not yet captured as awaiting, not as a difference", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "20.00", cryptoAddress: to });
    const id = res.json().transferRequest.id as string;
    await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "approved" },
    });
    const pass = () =>
      runPayoutPass(t.database.db, config(), {
        sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold,
      });
    await pass(); // signed and sent
    await chain.mine(1);
    await pass(); // mined, not deep
    await chain.mine(3); // deep now: the worker has not looked since
    const report = await runNow();
    expect(report).toMatchObject({ status: "clean", differences: 0, awaiting: 1 });
    const { items } = await detailOf(report.id);
    expect(items).toEqual([
      expect.objectContaining({ area: "payouts", kind: "payout_awaiting_capture", outcome: "awaiting" }),
    ]);
    await pass(); // captured
    await chain.mine(1);
    expect(await runNow()).toMatchObject({ status: "clean", awaiting: 0 });
  });

  it("finds a transfer made out of the hot wallet behind Pillar's back: reported, counted, downloadable", async () => {
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    const wallet = createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      account: hot,
    });
    const hash = await wallet.writeContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "transfer",
      args: [thief, 7_000_000n],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });

    // Not yet CHAIN_CONFIRMATIONS deep: not read yet, so not reported yet.
    expect((await runNow()).status).toBe("clean");
    await chain.mine(3);
    const report = await runNow();
    expect(report).toMatchObject({ status: "differences", differences: 2 });
    const dollars = (usdc: string | null) => Number(usdc);
    expect(dollars(report.hotExpectedUsdc) - dollars(report.hotOnChainUsdc)).toBe(7);
    const { items } = await detailOf(report.id);
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          area: "payouts",
          kind: "unknown_outflow",
          outcome: "difference",
          txHash: hash.toLowerCase(),
          chainUsdc: "7.000000",
        }),
        expect.objectContaining({
          area: "hot_wallet",
          kind: "balance",
          outcome: "difference",
          chainUsdc: report.hotOnChainUsdc,
          ledgerUsdc: report.hotExpectedUsdc,
        }),
      ]),
    );
    expect(await metric("payouts")).toBe(1);
    expect(await metric("hot_wallet")).toBe(1);
    expect(await metric("deposits")).toBe(0);

    // The report as CSV: an attachment, the items one per line.
    const csv = await t.app.inject({
      method: "GET",
      url: `/api/admin/settlement/reconciliations/${report.id}/report.csv`,
      headers: { cookie: finance.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(
      /^attachment; filename="pillar-reconciliation-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.csv"$/,
    );
    expect(csv.body).toContain(`payouts,difference,unknown_outflow,${hash.toLowerCase()},`);
    expect(csv.body).toContain("hot_wallet,difference,balance,");

    // It stays a difference on the next run (the logs are kept), until someone explains it.
    await chain.mine(1);
    expect(await runNow()).toMatchObject({ status: "differences", differences: 2 });

    // The list shows the reports, newest first.
    const list = await t.app.inject({
      method: "GET",
      url: "/api/admin/settlement/reconciliations",
      headers: { cookie: finance.cookie },
    });
    expect(list.json().reports[0]).toMatchObject({ status: "differences" });
  });

  it("acknowledges a difference with a reason: still reported and in the CSV, no longer counted; a new one counts", async () => {
    const member = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const checker = { ...member, secret: (await enrolTotp(t.app, member.cookie)).secret };
    const support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    const swept = await behindPillarsBack(3_000_000n);
    const report = await runNow();
    expect(report.status).toBe("differences");
    const { items } = await detailOf(report.id);
    const differences = items.filter((i) => i.outcome === "difference");
    const outflow = differences.find((i) => i.txHash === swept)!;
    const balance = differences.find((i) => i.area === "hot_wallet")!;
    expect(outflow).toMatchObject({ kind: "unknown_outflow", acknowledgment: null });
    expect(await metric("payouts")).toBeGreaterThan(0);

    const acknowledge = (who: SignedInUser, itemId: string, reason = "Treasury sweep, ticket FIN-12") =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/settlement/reconciliations/${report.id}/items/${itemId}/acknowledge`,
        headers: { cookie: who.cookie },
        payload: { reason },
      });
    // Support cannot; without a fresh step-up, or without a reason, nothing is written.
    expect((await acknowledge(support, outflow.id)).statusCode).toBe(403);
    expect((await acknowledge(checker, outflow.id)).json().reason).toBe("step_up_required");
    await stepUpWithTotp(t.app, t.database, {
      id: checker.user.id,
      cookie: checker.cookie,
      secret: checker.secret,
    });
    expect((await acknowledge(checker, outflow.id, "  ")).statusCode).toBe(400);
    // An item of no report of this chain, or of another report: 404.
    expect((await acknowledge(checker, "999999999")).statusCode).toBe(404);
    expect(await t.database.query("select 1 from reconciliation_acknowledgments")).toEqual([]);

    for (const item of differences) {
      const res = await acknowledge(checker, item.id);
      expect(res.statusCode, res.body).toBe(200);
    }
    // Again: already acknowledged.
    const again = await acknowledge(checker, outflow.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().reason).toBe("difference_acknowledged");

    // Still in the report, marked with who, when and why; no longer counted, counted as acknowledged instead.
    const after = await detailOf(report.id);
    expect(after.report).toMatchObject({ differences: differences.length, acknowledged: differences.length });
    expect(after.items.find((i) => i.id === outflow.id)!.acknowledgment).toMatchObject({
      by: checker.email,
      reason: "Treasury sweep, ticket FIN-12",
    });
    for (const area of ["hot_wallet", "payouts"]) {
      expect(await metric(area)).toBe(0);
      expect(await metric(area, "reconciliation_acknowledged_differences")).toBeGreaterThan(0);
    }
    const csv = await t.app.inject({
      method: "GET",
      url: `/api/admin/settlement/reconciliations/${report.id}/report.csv`,
      headers: { cookie: finance.cookie },
    });
    expect(csv.body).toContain(`unknown_outflow,${swept},`);
    expect(csv.body).toContain(`,${checker.email},`);
    expect(csv.body).toContain('"Treasury sweep, ticket FIN-12"');
    const audit = await t.database.query<{ actor_id: string; reason: string }>(
      "select actor_id, reason from audit_log where action = 'settlement.acknowledge_difference'",
    );
    expect(audit).toHaveLength(differences.length);
    expect(audit[0]).toEqual({ actor_id: checker.user.id, reason: "Treasury sweep, ticket FIN-12" });

    // The next run finds the same differences: acknowledged there too, still not counted.
    await chain.mine(1);
    const next = await runNow();
    expect(next).toMatchObject({ differences: differences.length, acknowledged: differences.length });
    expect(await metric("payouts")).toBe(0);
    expect(await metric("hot_wallet")).toBe(0);

    // A new outflow is a new difference, and it moves the balance gap: both count again.
    const fresh = await behindPillarsBack(2_000_000n);
    const latest = await runNow();
    expect(latest.differences - latest.acknowledged).toBe(2);
    const newItems = (await detailOf(latest.id)).items.filter((i) => !i.acknowledgment);
    expect(newItems.map((i) => i.kind).sort()).toEqual(["balance", "unknown_outflow"]);
    expect(newItems.find((i) => i.kind === "unknown_outflow")!.txHash).toBe(fresh);
    expect(await metric("payouts")).toBe(1);
    expect(await metric("hot_wallet")).toBe(1);
    expect(balance.acknowledgment).toBeNull();
  });

  it("keeps a run that cannot reach the node as an error report, and lets one run at a time", async () => {
    const result = await runReconciliation(
      t.database.db,
      { ...config(), rpcUrl: "http://127.0.0.1:1" },
      { trigger: "staff" },
    );
    expect(result?.status).toBe("error");
    // A scheduled run right after a finished one is skipped (another instance did it).
    expect(await runReconciliation(t.database.db, config(), { trigger: "scheduled" })).toBeNull();
  });
});
