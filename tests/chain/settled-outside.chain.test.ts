import { eq, sql } from "drizzle-orm";
import { createTestClient, createWalletClient, type Hex, http, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ReconciliationReport, SettlementOverview } from "@/contract/settlement";
import { journalEntries, payoutAttempts, payouts, transferRequests } from "@/server/db/schema";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { runPayoutPass } from "@/server/features/settlement/payout-worker";
import { findWallet, lockWallet } from "@/server/lib/ledger";
import { ANVIL_KEYS, chainEnv, setUpTestChain } from "@/tests/support/anvil";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { enrolTotp, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// A payout settled outside Pillar, recorded through maker-checker on a real anvil (decision 040): one finance
// member proposes with a reason (and the transaction that paid, if any), a different one approves, both after a
// fresh step-up; the ledger completes the transfer once and the worker never signs or sends the payout again.
// Every test ends with the ledger check and a clean reconciliation.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);
const treasury = privateKeyToAccount(ANVIL_KEYS.payer);

type Staff = SignedInUser & { secret: string };

describe.skipIf(!process.env.DATABASE_URL)("Payouts settled outside Pillar on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => chainEnv(chain));
  const config = () => t.app.deps.config.chain!;
  let owner: SignedInUser;
  let maker: Staff;
  let checker: Staff;
  let support: SignedInUser;
  const anvil = () =>
    createTestClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      mode: "anvil",
    });

  const financeMember = async (): Promise<Staff> => {
    const member = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const { secret } = await enrolTotp(t.app, member.cookie);
    return { ...member, secret };
  };
  const stepUp = (who: Staff) =>
    stepUpWithTotp(t.app, t.database, { id: who.user.id, cookie: who.cookie, secret: who.secret });

  beforeAll(async () => {
    owner = await createAdminUser(t.database);
    maker = await financeMember();
    checker = await financeMember();
    support = await createVerifiedUser(t.database, { staffRoles: ["support"] });
    await chain.mint(treasury.address, 1_000_000_000n); // $1,000 in a wallet that is not Pillar's
  });
  afterEach(async () => {
    await anvil().setAutomine(true);
    await expectLedgerClean(t.database);
    // The chain agrees with the ledger after every test.
    await chain.mine(3);
    const run = await post(owner, "/api/admin/settlement/reconciliations");
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json() as ReconciliationReport).toMatchObject({ status: "clean", differences: 0 });
  });
  afterAll(async () => {
    await anvil().setAutomine(true);
  });

  const post = (who: SignedInUser | null, url: string, payload?: object) =>
    t.app.inject({
      method: "POST",
      url,
      headers: who ? { cookie: who.cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const propose = (who: SignedInUser | null, payoutId: string, body: object) =>
    post(who, `/api/admin/settlement/payouts/${payoutId}/settled-outside`, body);
  const approve = (who: SignedInUser, approvalId: string) =>
    post(who, `/api/admin/approvals/${approvalId}/approve`, {});
  const pass = (options: { at?: Parameters<typeof runPayoutPass>[2]["at"] } = {}) =>
    runPayoutPass(t.database.db, config(), {
      sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold,
      ...options,
    });
  const payoutOf = async (transferId: string) =>
    (await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, transferId)))[0]!;
  const transferOf = async (id: string) =>
    (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
  const capturesOf = async (id: string) =>
    t.database.db
      .select()
      .from(journalEntries)
      .where(sql`${journalEntries.kind} = 'transfer_capture' and ${journalEntries.referenceId} = ${id}`);
  const paidFromHot = async (to: `0x${string}`) =>
    chain.publicClient.getLogs({
      address: chain.token,
      event: TRANSFER,
      args: { from: hot.address, to },
      fromBlock: 0n,
    });

  /** A $50.00 transfer approved by staff: its payout is queued ($49.00 net after the $1.00 fee). */
  async function approvedTransfer() {
    const customer = await createFundedCustomer(t, owner, "200.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "50.00", cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: owner.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    return { customer, to, id };
  }

  it("records a payout paid from another wallet with two finance members; the worker never sends it", async () => {
    // The hot wallet is empty: the payout waits, and finance pays the customer from the treasury instead.
    const { customer, to, id } = await approvedTransfer();
    expect(await pass()).toMatchObject({ signed: 0, waiting: "usdc" });
    const payout = await payoutOf(id);
    expect(payout.status).toBe("queued");
    const paid = await chain.send(ANVIL_KEYS.payer, to, 49_000_000n);
    const wrongAmount = await chain.send(ANVIL_KEYS.payer, to, 48_000_000n);
    await chain.mine(3);
    const body = { reason: "Paid from the treasury wallet while the hot wallet was empty", txHash: paid };

    // Signed out, support, or no fresh step-up: refused before anything is written.
    expect((await propose(null, payout.id, body)).statusCode).toBe(401);
    expect((await propose(support, payout.id, body)).statusCode).toBe(403);
    const noStepUp = await propose(maker, payout.id, body);
    expect(noStepUp.statusCode).toBe(403);
    expect(noStepUp.json().reason).toBe("step_up_required");
    await stepUp(maker);
    // No reason, a hash that is not the payment, or another payout id: refused.
    expect((await propose(maker, payout.id, { reason: " " })).statusCode).toBe(400);
    const wrong = await propose(maker, payout.id, { ...body, txHash: wrongAmount });
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json()).toMatchObject({ reason: "outside_tx_invalid", field: "txHash" });
    expect((await propose(maker, crypto.randomUUID(), body)).statusCode).toBe(404);
    expect(await t.database.query("select 1 from approvals where kind = 'payout_settled_outside'")).toEqual(
      [],
    );

    const proposed = await propose(maker, payout.id, body);
    expect(proposed.statusCode, proposed.body).toBe(202);
    const approval = proposed.json().approval;
    expect(approval).toMatchObject({
      kind: "payout_settled_outside",
      status: "pending",
      amountCents: 5000,
      reason: body.reason,
      maker: { id: maker.user.id },
    });
    // The same proposal again: one pending per payout.
    const replay = await propose(maker, payout.id, body);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().reason).toBe("approval_pending");

    // While it waits, the hot wallet is funded: the worker still does not sign it.
    await chain.mint(hot.address, 100_000_000n);
    expect(await pass()).toMatchObject({ signed: 0 });
    const tab = await t.app.inject({
      method: "GET",
      url: "/api/admin/settlement",
      headers: { cookie: checker.cookie },
    });
    const listed = (tab.json() as Extract<SettlementOverview, { mode: "chain" }>).payouts.find(
      (p) => p.id === payout.id,
    );
    expect(listed).toMatchObject({
      status: "queued",
      settledOutside: { approvalId: approval.id, status: "pending", proposedBy: maker.email, txHash: paid },
    });

    // The maker cannot approve their own proposal, support cannot decide, the checker needs a fresh step-up.
    await stepUp(maker);
    const own = await approve(maker, approval.id);
    expect(own.statusCode).toBe(403);
    expect(own.json().reason).toBe("self_approval");
    expect((await approve(support, approval.id)).statusCode).toBe(403);
    expect((await approve(checker, approval.id)).json().reason).toBe("step_up_required");
    expect((await transferOf(id)).status).toBe("processing");

    await stepUp(checker);
    const approved = await approve(checker, approval.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().approval.status).toBe("approved");
    // Replayed: already decided, nothing moves twice.
    expect((await approve(checker, approval.id)).json().reason).toBe("approval_decided");

    expect((await transferOf(id)).status).toBe("completed");
    expect(await payoutOf(id)).toMatchObject({
      status: "completed",
      outsideTxHash: paid.toLowerCase(),
      settledOutsideBy: approval.id,
    });
    expect(await capturesOf(id)).toHaveLength(1);
    const wallet = await findWallet(t.database.db, customer.user.id);
    expect(wallet).toMatchObject({ balance: 15_000, held: 0 });
    // The worker never signs or sends it, now that the hot wallet could pay.
    expect(await pass()).toMatchObject({ signed: 0, broadcast: 0, completed: 0 });
    expect(
      await t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.payoutId, payout.id)),
    ).toEqual([]);
    expect(await paidFromHot(to)).toEqual([]);
    const audit = await t.database.query<{ action: string; actor_id: string }>(
      `select action, actor_id from audit_log
       where (target_id = $1 and action like 'approval.%') or (target_id = $2 and action = 'payout.settled_outside')
       order by created_at, action`,
      [approval.id, id],
    );
    // The approval and the capture it runs (as the maker, like every approved change) share one transaction.
    expect(audit).toEqual([
      { action: "approval.request", actor_id: maker.user.id },
      { action: "approval.approve", actor_id: checker.user.id },
      { action: "payout.settled_outside", actor_id: maker.user.id },
    ]);

    // Settled: a second proposal for it is refused.
    await stepUp(maker);
    const again = await propose(maker, payout.id, { reason: "Again" });
    expect(again.statusCode).toBe(409);
    expect(again.json().reason).toBe("payout_not_settleable");
  });

  it("waits until Pillar's own signed transaction can no longer be mined, then records the hot key's transfer", async () => {
    await chain.mint(hot.address, 100_000_000n);
    const { to, id } = await approvedTransfer();
    // The node stops mining: the payout is signed and sent, and its bytes sit in the mempool.
    await anvil().setAutomine(false);
    await pass();
    const payout = await payoutOf(id);
    expect(payout.status).toBe("sent");
    await stepUp(maker);
    const early = await propose(maker, payout.id, { reason: "Stuck for hours" });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().reason).toBe("payout_not_settleable");

    // The bytes are lost, and someone pays the customer with the hot key by hand at the payout's nonce.
    const [attempt] = await t.database.db
      .select()
      .from(payoutAttempts)
      .where(eq(payoutAttempts.payoutId, payout.id));
    await anvil().dropTransaction({ hash: attempt!.txHash as Hex });
    const byHand = await createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      account: hot,
    }).writeContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "transfer",
      args: [to, 49_000_000n],
      nonce: payout.nonce!,
    });
    // Pillar's own hash is refused as the outside settlement.
    await chain.mine(4);
    await stepUp(maker);
    const own = await propose(maker, payout.id, { reason: "Paid", txHash: attempt!.txHash });
    expect(own.statusCode).toBe(422);
    const proposed = await propose(maker, payout.id, {
      reason: "Operations paid with the hot key by hand (ticket OPS-7)",
      txHash: byHand,
    });
    expect(proposed.statusCode, proposed.body).toBe(202);

    // The worker passes while the approval lands: whichever takes the payout first, it settles once.
    await stepUp(checker);
    const [approved] = await Promise.all([approve(checker, proposed.json().approval.id), pass()]);
    expect(approved.statusCode, approved.body).toBe(200);
    await pass();
    expect(await payoutOf(id)).toMatchObject({ status: "completed", outsideTxHash: byHand.toLowerCase() });
    expect(await capturesOf(id)).toHaveLength(1);
    // Exactly one transfer from the hot wallet to the customer: the one by hand.
    const logs = await paidFromHot(to);
    expect(logs.map((l) => l.transactionHash)).toEqual([byHand]);
  });

  describe("racing the worker", () => {
    it("a proposal made while the worker holds the payout waits for it, then is refused: the worker sent it", async () => {
      await chain.mint(hot.address, 100_000_000n);
      const { to, id } = await approvedTransfer();
      const payout = await payoutOf(id);
      await stepUp(maker);
      let proposal: ReturnType<typeof propose> | undefined;
      await pass({
        at: async (step) => {
          if (step !== "before_sign") return;
          proposal = propose(maker, payout.id, { reason: "Paid elsewhere" });
          await waitForLockWaiters(1);
        },
      });
      const answer = await proposal!;
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().reason).toBe("payout_not_settleable");
      for (let i = 0; i < 6 && (await transferOf(id)).status !== "completed"; i += 1) {
        await chain.mine(1);
        await pass();
      }
      expect((await payoutOf(id)).settledOutsideBy).toBeNull();
      expect(await capturesOf(id)).toHaveLength(1);
      expect(await paidFromHot(to)).toHaveLength(1);
    });

    it("an approval holding the payout makes the worker skip it; after it the worker never signs it", async () => {
      const { customer, to, id } = await approvedTransfer();
      const payout = await payoutOf(id);
      await stepUp(maker);
      const proposed = await propose(maker, payout.id, { reason: "Paid from the treasury by wire" });
      expect(proposed.statusCode, proposed.body).toBe(202);
      await chain.mint(hot.address, 100_000_000n);

      // The test holds the customer's wallet: the approval takes the approval row and the payout (the worker's
      // order: payout, then wallet), then waits on the wallet.
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let locked!: () => void;
      const lockTaken = new Promise<void>((r) => {
        locked = r;
      });
      const holder = t.database.db.transaction(async (tx) => {
        await lockWallet(tx, customer.user.id);
        locked();
        await held;
      });
      await lockTaken;
      await stepUp(checker);
      const approving = approve(checker, proposed.json().approval.id);
      await waitForLockWaiters(1);
      // The proposal is still pending, and the payout locked by the approval: the worker signs nothing.
      expect(await pass()).toMatchObject({ signed: 0 });
      release();
      await holder;
      expect((await approving).statusCode).toBe(200);
      expect(await pass()).toMatchObject({ signed: 0, broadcast: 0 });
      expect(await payoutOf(id)).toMatchObject({ status: "completed", outsideTxHash: null });
      expect(await capturesOf(id)).toHaveLength(1);
      expect(await paidFromHot(to)).toEqual([]);
    });
  });

  /** Waits until `n` sessions of this database wait on a row lock (the racing request reached its lock). */
  async function waitForLockWaiters(n: number) {
    for (;;) {
      const [row] = await t.database.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (row!.n >= n) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
});
