import { eq } from "drizzle-orm";
import { createTestClient, http, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ReconciliationReport, SettlementOverview } from "@/contract/settlement";
import { payoutAttempts, payouts, transferRequests } from "@/server/db/schema";
import { runPayoutPass } from "@/server/features/settlement/payout-worker";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { enrolTotp, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// The Settlement tab's API on a real anvil (decision 038): finance and owners only; a stuck payout is sped up
// with a same-nonce replacement after a fresh step-up, audited, and exactly one transfer reaches the chain.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);

describe.skipIf(!process.env.DATABASE_URL)("Settlement tab on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({
    ...chainEnv(chain),
    PAYOUT_REBROADCAST_AFTER: "1",
    CHAIN_EXPLORER_URL: "https://explorer.example",
    HOT_WALLET_LOW_USDC: "5000000.00",
  }));
  const config = () => t.app.deps.config.chain!;
  let owner: SignedInUser;
  let finance: SignedInUser & { secret: string };
  const anvil = () =>
    createTestClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      mode: "anvil",
    });

  beforeAll(async () => {
    owner = await createAdminUser(t.database);
    const member = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const { secret } = await enrolTotp(t.app, member.cookie);
    finance = { ...member, secret };
    await chain.mint(hot.address, 1_000_000_000n); // $1,000
  });
  afterEach(async () => {
    await anvil().setAutomine(true);
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, config());
  });
  afterAll(async () => {
    await anvil().setAutomine(true);
  });

  const get = (cookie: string | undefined, url: string) =>
    t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
  const speedUp = (cookie: string | undefined, payoutId: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/settlement/payouts/${payoutId}/speed-up`,
      headers: cookie ? { cookie } : {},
    });
  const overview = async (cookie = finance.cookie) => {
    const res = await get(cookie, "/api/admin/settlement");
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Extract<SettlementOverview, { mode: "chain" }>;
  };
  const pass = () =>
    runPayoutPass(t.database.db, config(), { sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold });

  it("refuses support, compliance, customers and strangers; finance and owners see the tab", async () => {
    const support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    const compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const customer = await createVerifiedUser(t.database);
    const routes = [
      ["GET", "/api/admin/settlement"],
      ["GET", "/api/admin/settlement/reconciliations"],
      ["POST", "/api/admin/settlement/reconciliations"],
      ["POST", `/api/admin/settlement/payouts/${crypto.randomUUID()}/speed-up`],
    ] as const;
    for (const [method, url] of routes) {
      for (const who of [support, compliance, customer]) {
        const res = await t.app.inject({ method, url, headers: { cookie: who.cookie } });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
    const seen = await overview(owner.cookie);
    expect(seen).toMatchObject({
      mode: "chain",
      chainId: chain.node.chainId,
      confirmations: 3,
      hotWallet: {
        address: hot.address,
        usdc: "1000.000000",
        gasSymbol: "ETH",
        lowUsdc: true,
        lowGas: false,
        lowUsdcThreshold: "$5,000,000.00",
        explorerUrl: `https://explorer.example/address/${hot.address}`,
      },
    });
    expect(Number(seen.hotWallet.gas)).toBeGreaterThan(1);
    // Nothing any refused caller did reached the audit log or a reconciliation.
    const audit = await t.database.query(
      "select 1 from audit_log where action like 'settlement.%' or action = 'payout.speed_up'",
    );
    expect(audit).toEqual([]);
  });

  it("speeds up a stuck payout at the same nonce after a fresh step-up, audited; one transfer reaches the chain", async () => {
    const customer = await createFundedCustomer(t, owner, "200.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "30.00", cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: owner.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);

    // The node stops mining: the payout is sent and sits in the mempool.
    await anvil().setAutomine(false);
    await pass();
    const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id));
    expect(payout!.status).toBe("sent");
    await new Promise((r) => setTimeout(r, 1_100));
    let listed = (await overview()).payouts.find((p) => p.id === payout!.id)!;
    expect(listed).toMatchObject({
      status: "sent",
      nonce: payout!.nonce,
      confirmations: 0,
      attempts: 1,
      stuck: true,
      amount: "$29.40",
    });
    expect(listed.explorerUrl).toBe(`https://explorer.example/tx/${listed.txHash}`);
    const firstHash = listed.txHash!;

    // No fresh step-up: refused, nothing signed, nothing audited.
    const refused = await speedUp(finance.cookie, payout!.id);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().reason).toBe("step_up_required");
    const attempts = () =>
      t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.payoutId, payout!.id));
    expect(await attempts()).toHaveLength(1);

    await stepUpWithTotp(t.app, t.database, {
      id: finance.user.id,
      cookie: finance.cookie,
      secret: finance.secret,
    });
    const sped = await speedUp(finance.cookie, payout!.id);
    expect(sped.statusCode, sped.body).toBe(200);
    const { txHash, nonce, broadcast } = sped.json();
    expect(txHash).not.toBe(firstHash);
    expect(nonce).toBe(payout!.nonce);
    expect(broadcast).toBe(true);
    const both = await attempts();
    expect(both.map((a) => a.nonce)).toEqual([payout!.nonce, payout!.nonce]);
    expect(BigInt(both[1]!.maxFeePerGas)).toBeGreaterThan(BigInt(both[0]!.maxFeePerGas));
    const audit = await t.database.query<{ actor_id: string; target_id: string; after: { txHash: string } }>(
      "select actor_id, target_id, after from audit_log where action = 'payout.speed_up'",
    );
    expect(audit).toEqual([
      { actor_id: finance.user.id, target_id: id, after: { txHash, nonce: payout!.nonce } },
    ]);

    // The node mines again: the replacement is the one mined, and the payout completes once.
    await anvil().setAutomine(true);
    await chain.mine(1);
    for (let i = 0; i < 8; i += 1) {
      await pass();
      const [row] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
      if (row!.status === "completed") break;
      await chain.mine(1);
    }
    const [done] = await t.database.db.select().from(payouts).where(eq(payouts.id, payout!.id));
    expect(done).toMatchObject({ status: "completed", minedHash: txHash });
    const logs = await chain.publicClient.getLogs({
      address: chain.token,
      event: TRANSFER,
      args: { from: hot.address, to },
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    listed = (await overview()).payouts.find((p) => p.id === payout!.id)!;
    expect(listed).toMatchObject({ status: "completed", txHash, stuck: false });
    expect(listed.confirmations).toBeGreaterThanOrEqual(3);

    // Settled: nothing left to speed up.
    const again = await speedUp(finance.cookie, payout!.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().reason).toBe("payout_not_stuck");
    // Someone else's id, or no such payout: 404.
    expect((await speedUp(finance.cookie, crypto.randomUUID())).statusCode).toBe(404);

    // And the chain still agrees with the ledger.
    await chain.mine(3);
    const run = await t.app.inject({
      method: "POST",
      url: "/api/admin/settlement/reconciliations",
      headers: { cookie: finance.cookie },
    });
    expect(run.statusCode, run.body).toBe(201);
    expect((run.json() as ReconciliationReport).status).toBe("clean");
  });
});
