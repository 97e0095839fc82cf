import { asc, eq } from "drizzle-orm";
import { createTestClient, createWalletClient, http, parseGwei } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SettlementOverview } from "@/contract/settlement";
import { payoutAttempts, payouts, transferRequests } from "@/server/db/schema";
import { type PayoutStep, runPayoutPass } from "@/server/features/settlement/payout-worker";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { enrolTotp, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// The fee policy on a real anvil and PostgreSQL (decision 058): a base-fee spike between signing and broadcast,
// a flat market, the CHAIN_MAX_FEE_GWEI ceiling and a nonce used outside Pillar. Every test ends with the
// ledger invariant and a clean reconciliation of the chain with the ledger.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);
const CEILING_GWEI = "50";

/** Thrown by a pass's `at` hook to stop it right after signing, before anything is broadcast. */
class StopPass extends Error {}

describe.skipIf(!process.env.DATABASE_URL)("payout fees on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({
    ...chainEnv(chain),
    PAYOUT_REBROADCAST_AFTER: "1",
    CHAIN_MAX_FEE_GWEI: CEILING_GWEI,
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
    // Back to a calm market for the next test.
    await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("1") });
    await chain.mine(1);
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, config());
  });

  const pass = (over: Partial<ReturnType<typeof config>> = {}, at?: (step: PayoutStep) => unknown) =>
    runPayoutPass(
      t.database.db,
      { ...config(), ...over },
      { sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold, at: at as never },
    );
  /** The next block's base fee jumps to `gwei` (a block is mined at it). */
  const spike = async (gwei: string) => {
    await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei(gwei) });
    await chain.mine(1);
  };
  const baseFee = async () => (await chain.publicClient.getBlock()).baseFeePerGas!;

  async function approvedTransfer(amount = "20.00") {
    const customer = await createFundedCustomer(t, owner, "200.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount, cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: owner.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    return id;
  }
  const payoutOf = async (transferId: string) =>
    (await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, transferId)))[0]!;
  const attemptsOf = (payoutId: string) =>
    t.database.db
      .select()
      .from(payoutAttempts)
      .where(eq(payoutAttempts.payoutId, payoutId))
      .orderBy(asc(payoutAttempts.createdAt), asc(payoutAttempts.id));
  const statusOf = async (transferId: string) =>
    (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, transferId)))[0]!
      .status;
  async function settle(ids: string[], limit = 10) {
    for (let i = 0; i < limit; i += 1) {
      await pass();
      const states = await Promise.all(ids.map(statusOf));
      if (states.every((s) => s === "completed" || s === "failed")) return states;
      await chain.mine(1);
    }
    return Promise.all(ids.map(statusOf));
  }
  const overview = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/settlement",
      headers: { cookie: finance.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Extract<SettlementOverview, { mode: "chain" }>;
  };
  const metrics = async () => (await t.app.inject({ method: "GET", url: "/metrics" })).body;
  const speedUp = (payoutId: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/settlement/payouts/${payoutId}/speed-up`,
      headers: { cookie: finance.cookie },
    });

  it("re-signs a payout the node refuses after a base-fee spike at its nonce, and the later payout is not blocked", async () => {
    const first = await approvedTransfer();
    const second = await approvedTransfer();
    let signed = 0;
    // The base fee jumps between the first payout's signing and its broadcast.
    const report = await pass({}, async (step) => {
      if (step !== "after_sign") return;
      signed += 1;
      if (signed === 1) await spike("20");
    });
    const a = await payoutOf(first);
    const b = await payoutOf(second);
    expect([a.status, b.status]).toEqual(["sent", "sent"]);
    expect(report).toMatchObject({ signed: 2, broadcast: 1, resigned: 1 });
    const attempts = await attemptsOf(a.id);
    expect(attempts.map((x) => x.nonce)).toEqual([a.nonce, a.nonce]);
    expect(BigInt(attempts[1]!.maxFeePerGas)).toBeGreaterThan(parseGwei("17"));
    expect(b.nonce).toBe(a.nonce! + 1);
    expect(await settle([first, second])).toEqual(["completed", "completed"]);
    expect((await payoutOf(first)).minedHash).toBe(attempts[1]!.txHash);
    expect(await attemptsOf(b.id)).toHaveLength(1);
    expect((await overview()).payouts.filter((p) => p.stuck)).toEqual([]);
  });

  it("marks the refused payout as the stuck one, not the payout behind it, and speeds it up (not 409)", async () => {
    const first = await approvedTransfer();
    const second = await approvedTransfer();
    let signed = 0;
    // Both are signed; the process dies before anything is broadcast, and the base fee jumps past both.
    await expect(
      pass({}, (step) => {
        if (step !== "after_sign") return;
        signed += 1;
        if (signed === 2) throw new StopPass("stopped after signing");
      }),
    ).rejects.toBeInstanceOf(StopPass);
    await spike("20");
    const a = await payoutOf(first);
    const b = await payoutOf(second);
    expect([a.status, b.status]).toEqual(["signed", "signed"]);
    await new Promise((r) => setTimeout(r, 1_100));
    const listed = (await overview()).payouts;
    expect(listed.find((p) => p.id === a.id)).toMatchObject({ stuck: true, waitingBehindNonce: null });
    expect(listed.find((p) => p.id === b.id)).toMatchObject({ stuck: false, waitingBehindNonce: a.nonce });

    await stepUpWithTotp(t.app, t.database, {
      id: finance.user.id,
      cookie: finance.cookie,
      secret: finance.secret,
    });
    const sped = await speedUp(a.id);
    expect(sped.statusCode, sped.body).toBe(200);
    expect(sped.json()).toMatchObject({ nonce: a.nonce, broadcast: true });
    expect((await payoutOf(first)).status).toBe("sent");
    expect(await settle([first, second])).toEqual(["completed", "completed"]);
    expect((await payoutOf(first)).minedHash).toBe(sped.json().txHash);
  });

  describe("with blocks mined on demand", () => {
    it("does not replace a payout in a flat market after PAYOUT_REPLACE_AFTER: the same bytes go again", async () => {
      await anvil().setAutomine(false);
      const id = await approvedTransfer();
      await pass();
      const payout = await payoutOf(id);
      expect(payout.status).toBe("sent");
      const due = { payoutReplaceAfterMs: 0, payoutRebroadcastAfterMs: 0 };
      for (let i = 0; i < 3; i += 1) {
        expect(await pass(due)).toMatchObject({ replaced: 0, rebroadcast: 1 });
      }
      const attempts = await attemptsOf(payout.id);
      expect(attempts).toHaveLength(1);
      await anvil().setAutomine(true);
      await chain.mine(1);
      expect(await settle([id])).toEqual(["completed"]);
      expect((await payoutOf(id)).minedHash).toBe(attempts[0]!.txHash);
    });
  });

  it("pauses payouts with an alert while the fee is above CHAIN_MAX_FEE_GWEI, and sends them when it falls", async () => {
    await spike("100");
    const id = await approvedTransfer();
    expect(await pass()).toMatchObject({ signed: 0, paused: 1 });
    const paused = await payoutOf(id);
    expect(paused).toMatchObject({ status: "queued", waitingReason: "fee_ceiling" });
    expect(await attemptsOf(paused.id)).toEqual([]);
    const seen = await overview();
    expect(seen.alerts.map((a) => a.kind)).toContain("fee_ceiling");
    expect(seen.fees.ceiling).toBe(`${CEILING_GWEI} gwei`);
    const body = await metrics();
    expect(body).toContain('payouts_paused{reason="fee_ceiling"} 1');
    expect(body).toMatch(/payout_oldest_unsent_seconds \d/);
    expect(body).toMatch(/hot_wallet_usdc [1-9]/);
    expect(body).toMatch(/hot_wallet_gas [1-9]/);

    // The market falls (empty blocks lower the base fee 12.5% each): the payout goes, at most at the ceiling.
    await chain.mine(10);
    expect(await baseFee()).toBeLessThan(parseGwei("40"));
    expect(await settle([id])).toEqual(["completed"]);
    const [attempt] = await attemptsOf(paused.id);
    expect(BigInt(attempt!.maxFeePerGas)).toBeLessThanOrEqual(parseGwei(CEILING_GWEI));
    expect((await payoutOf(id)).waitingReason).toBeNull();
    expect((await overview()).alerts.map((a) => a.kind)).not.toContain("fee_ceiling");
    expect(await metrics()).toContain('payouts_paused{reason="fee_ceiling"} 0');
  });

  // Last: the hot key used behind Pillar's back leaves its payout waiting for staff for the rest of the file.
  it("detects a nonce used outside Pillar, shows it, and never sends the payout at another nonce", async () => {
    const id = await approvedTransfer();
    await expect(
      pass({}, (step) => {
        if (step === "after_sign") throw new StopPass("stopped after signing");
      }),
    ).rejects.toBeInstanceOf(StopPass);
    const payout = await payoutOf(id);
    // Someone with the hot key sends a transaction of their own at the payout's nonce.
    const outside = await createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      account: hot,
    }).sendTransaction({ to: hot.address, value: 0n, nonce: payout.nonce! });
    await chain.publicClient.waitForTransactionReceipt({ hash: outside, pollingInterval: 50 });

    const report = await pass();
    expect(await payoutOf(id)).toMatchObject({ waitingReason: "nonce_used_outside", minedHash: null });
    expect(report).toMatchObject({ usedOutside: 1, replaced: 0 });
    const seen = await overview();
    expect(seen.alerts).toContainEqual(
      expect.objectContaining({
        kind: "nonce_used_outside",
        message: expect.stringContaining(`${payout.nonce}`),
      }),
    );
    const body = await metrics();
    expect(body).toContain('hot_wallet_nonce_alert{kind="used_outside"} 1');
    expect(body).toContain('payouts_paused{reason="nonce_used_outside"} 1');

    // It stays put: no replacement, no other nonce, and Speed up explains why.
    await chain.mine(3);
    expect(await pass({ payoutReplaceAfterMs: 0, payoutRebroadcastAfterMs: 0 })).toMatchObject({
      replaced: 0,
      rebroadcast: 0,
      signed: 0,
    });
    expect(await attemptsOf(payout.id)).toHaveLength(1);
    await stepUpWithTotp(t.app, t.database, {
      id: finance.user.id,
      cookie: finance.cookie,
      secret: finance.secret,
    });
    const sped = await speedUp(payout.id);
    expect(sped.statusCode, sped.body).toBe(409);
    expect(sped.json().reason).toBe("payout_not_stuck");
    expect(await statusOf(id)).toBe("processing");
  });
});
