import { spawn } from "node:child_process";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import {
  type Address,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseAbiItem,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PAYOUT_MESSAGES } from "@/contract/settlement";
import type { TransferReceipt } from "@/contract/transfers";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import {
  complianceHits,
  journalEntries,
  payoutAttempts,
  payouts,
  transferRequests,
} from "@/server/db/schema";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { type PayoutStep, runPayoutPass } from "@/server/features/settlement/payout-worker";
import { findWallet } from "@/server/lib/ledger";
import {
  ANVIL_KEYS,
  chainEnv,
  expectReconciled,
  type KnownDifference,
  setUpTestChain,
} from "@/tests/support/anvil";
import { createFundedCustomer, ETH_ADDRESS, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// Payouts on a real anvil and real PostgreSQL (decision 030). Every test ends with the ledger invariant, and
// with the chain agreeing with the ledger: the recipient got net × 10^4 units exactly when the transfer was
// captured, by exactly one Transfer log from the hot wallet, and one capture entry.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const root = path.resolve(import.meta.dirname, "../..");
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);

describe.skipIf(!process.env.DATABASE_URL)("USDC payouts on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => chainEnv(chain));
  const config = () => t.app.deps.config.chain!;
  let admin: SignedInUser;
  const transport = () => http(chain.node.url);
  const anvil = () =>
    createTestClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: transport(),
      mode: "anvil",
    });
  const owner = () =>
    createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: transport(),
      account: privateKeyToAccount(ANVIL_KEYS.deployer),
    });
  const ownerCall = async (
    functionName: "blacklist" | "pause" | "unpause",
    args: readonly Address[] = [],
  ) => {
    const hash = await owner().writeContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName,
      args,
    } as never);
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  };
  const tokenBalance = (address: Address) =>
    chain.publicClient.readContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "balanceOf",
      args: [address],
    });

  beforeAll(async () => {
    admin = await createAdminUser(t.database);
    await chain.mint(hot.address, 1_000_000_000_000n); // $1,000,000
  });
  // USDC the hot-wallet test moves out behind Pillar's back: every later reconciliation must name it (and only it).
  const outflows: KnownDifference[] = [];
  afterEach(async () => {
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, config(), outflows);
  });

  const pass = (over: Partial<ReturnType<typeof config>> = {}, at?: (step: PayoutStep) => unknown) =>
    runPayoutPass(
      t.database.db,
      { ...config(), ...over },
      {
        sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold,
        at: at as never,
      },
    );
  const freshRecipient = () => privateKeyToAccount(generatePrivateKey()).address;

  /** A funded customer asks to send `amount` to `to`; staff Quick Approve it (answers the approval's reply). */
  async function approvedTransfer(to: string, amount = "50.00") {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const res = await requestTransfer(t.app, customer, { amount, cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    const approved = await approve(id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe("processing");
    return { customer, id };
  }
  const approve = (id: string, status = "approved") =>
    t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status },
    });
  const transferOf = async (id: string) =>
    (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
  const payoutOf = async (id: string) =>
    (await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id)))[0]!;
  const attemptsOf = async (payoutId: string) =>
    t.database.db
      .select()
      .from(payoutAttempts)
      .where(eq(payoutAttempts.payoutId, payoutId))
      .orderBy(asc(payoutAttempts.createdAt));

  /** The chain and the ledger agree about this transfer: one on-chain transfer and one capture, or neither. */
  async function expectChainMatchesLedger(id: string, to: Address) {
    const request = await transferOf(id);
    const captured = request.status === "completed";
    const captures = await t.database.db
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.referenceType, "transfer_request"), eq(journalEntries.referenceId, id)));
    expect(captures.filter((e) => e.kind === "transfer_capture")).toHaveLength(captured ? 1 : 0);
    const logs = await chain.publicClient.getLogs({
      address: chain.token,
      event: TRANSFER,
      args: { from: hot.address, to },
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(captured ? 1 : 0);
    expect(await tokenBalance(to)).toBe(captured ? BigInt(request.netAmount) * 10_000n : 0n);
    const wallet = await findWallet(t.database.db, request.userId!);
    expect(wallet?.held).toBe(0);
  }

  /** Runs passes, mining a block between them, until the transfer settles (or `limit` passes). */
  async function settle(id: string, over: Partial<ReturnType<typeof config>> = {}, limit = 8) {
    for (let i = 0; i < limit; i += 1) {
      await pass(over);
      const { status } = await transferOf(id);
      if (status === "completed" || status === "failed") return status;
      await chain.mine(1);
    }
    return (await transferOf(id)).status;
  }

  /**
   * A worker process, loaded and waiting (tests/support/payout-pass-once.ts); run(killAt) starts its one pass.
   * Workers are started in beforeAll, so their loading overlaps the tests before the ones that use them.
   */
  function startWorkerProcess() {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/payout-pass-once.ts"], {
      cwd: root,
      env: { ...process.env, ...chainEnv(chain), DATABASE_URL: t.database.url!, DATA_DIR: t.dataDir },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let onReady: () => void;
    const ready = new Promise<void>((resolve) => (onReady = resolve));
    child.stdout.on("data", (d) => {
      output += d;
      if (output.startsWith("ready\n")) onReady();
    });
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
      child.once("exit", (code, signal) => {
        onReady();
        resolve({ code, signal, output });
      }),
    );
    return {
      child,
      async run(killAt?: PayoutStep) {
        await ready;
        child.stdin.end(`${killAt ?? ""}\n`);
        return exited;
      },
    };
  }
  let workers: ReturnType<typeof startWorkerProcess>[] = [];
  const runWorkerProcess = (killAt?: PayoutStep) => workers.shift()!.run(killAt);
  beforeAll(() => {
    // Four kill tests and three racers.
    workers = Array.from({ length: 7 }, startWorkerProcess);
  });
  afterAll(() => {
    for (const w of workers) w.child.kill("SIGKILL");
  });

  const receiptOf = async (customer: SignedInUser, id: string) => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/transfers/${id}`,
      headers: { cookie: customer.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TransferReceipt;
  };

  it("sends an approved transfer on chain and completes it only after the confirmations, capturing once", async () => {
    const to = freshRecipient();
    const hotBefore = await tokenBalance(hot.address);
    const { id, customer } = await approvedTransfer(to);
    expect((await receiptOf(customer, id)).onChain).toMatchObject({ txHash: null, confirmations: 0 });
    expect((await payoutOf(id)).status).toBe("queued");

    const first = await pass();
    expect(first).toMatchObject({ signed: 1, broadcast: 1, completed: 0 });
    const payout = await payoutOf(id);
    expect(payout.status).toBe("sent");
    const [attempt] = await attemptsOf(payout.id);
    expect(attempt!.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await transferOf(id)).status).toBe("processing");

    // Mined at depth 1 of 3: still processing, and the receipt shows the hash and the depth.
    await pass();
    expect((await payoutOf(id)).minedHash).toBe(attempt!.txHash);
    expect((await transferOf(id)).status).toBe("processing");
    expect((await receiptOf(customer, id)).onChain).toEqual({
      txHash: attempt!.txHash,
      confirmations: 1,
      confirmationsRequired: 3,
      explorerUrl: null,
      failureReason: null,
    });
    await chain.mine(2);
    expect(await pass()).toMatchObject({ completed: 1 });
    expect((await transferOf(id)).status).toBe("completed");
    expect((await payoutOf(id)).status).toBe("completed");
    // Passes after that change nothing.
    await chain.mine(3);
    expect(await pass()).toMatchObject({ completed: 0, signed: 0, broadcast: 0 });
    expect(await receiptOf(customer, id)).toMatchObject({
      status: "completed",
      onChain: { txHash: attempt!.txHash, confirmations: 6 },
    });
    await expectChainMatchesLedger(id, to);
    const request = await transferOf(id);
    expect(hotBefore - (await tokenBalance(hot.address))).toBe(BigInt(request.netAmount) * 10_000n);
  });

  it("refuses staff's hand-set completed and any move of a transfer the chain settles (409)", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const res = await requestTransfer(t.app, customer, { amount: "20.00", cryptoAddress: freshRecipient() });
    const id = res.json().transferRequest.id as string;
    const completed = await approve(id, "completed");
    expect(completed.statusCode).toBe(409);
    expect(completed.json()).toMatchObject({
      reason: "completed_by_chain",
      chainSettlement: true,
      message: PAYOUT_MESSAGES.completedByChain,
    });
    expect((await transferOf(id)).status).toBe("pending");
    expect((await approve(id)).statusCode).toBe(200);
    for (const status of ["cancelled", "failed", "approved", "rejected", "processing"]) {
      const moved = await approve(id, status);
      expect(moved.statusCode, status).toBe(409);
      expect(moved.json().reason).toBe("payout_in_flight");
    }
    // A customer cannot reach the staff desk.
    const asCustomer = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: customer.cookie },
      payload: { status: "completed" },
    });
    expect(asCustomer.statusCode).toBe(403);
    expect(await settle(id)).toBe("completed");
  });

  it.each<PayoutStep>(["before_sign", "after_sign", "after_broadcast", "after_mined"])(
    "sends at most one on-chain transfer and captures once when the worker is SIGKILLed %s",
    async (step) => {
      const to = freshRecipient();
      const { id } = await approvedTransfer(to, "30.00");
      if (step === "after_mined") {
        await pass();
        await chain.mine(3);
      }
      const killed = await runWorkerProcess(step);
      expect(killed.signal, killed.output).toBe("SIGKILL");
      const payout = await payoutOf(id);
      const attempts = await attemptsOf(payout.id);
      if (step === "before_sign") {
        expect(payout.status).toBe("queued");
        expect(attempts).toEqual([]);
      } else {
        // The signed bytes and their hash were stored before anything was broadcast.
        expect(attempts).toHaveLength(1);
      }
      if (step === "after_mined") expect((await transferOf(id)).status).toBe("processing");
      // The killed backend's locks go when PostgreSQL notices; then passes finish the payout.
      expect(await settle(id)).toBe("completed");
      expect(await attemptsOf(payout.id)).toHaveLength(step === "before_sign" ? 1 : attempts.length);
      await expectChainMatchesLedger(id, to);
    },
  );

  it("lets three worker processes race the queue: every payout once, every nonce once", async () => {
    const jobs = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async () => {
        const to = freshRecipient();
        return { to, ...(await approvedTransfer(to, "10.00")) };
      }),
    );
    const results = await Promise.all([runWorkerProcess(), runWorkerProcess(), runWorkerProcess()]);
    for (const r of results) expect(r.code, r.output).toBe(0);
    const signed = results.map((r) => JSON.parse(r.output.trim().split("\n").pop()!).signed as number);
    expect(signed.reduce((a, b) => a + b, 0)).toBe(6);
    await chain.mine(3);
    for (const job of jobs) expect(await settle(job.id)).toBe("completed");
    const rows = await Promise.all(jobs.map((j) => payoutOf(j.id)));
    expect(new Set(rows.map((r) => r.nonce)).size).toBe(6);
    for (const job of jobs) await expectChainMatchesLedger(job.id, job.to);
  });

  it("puts a payout a reorg took out before its depth back to sent and completes it once", async () => {
    const to = freshRecipient();
    const { id } = await approvedTransfer(to);
    await pass();
    const mined = await payoutOf(id);
    await pass();
    expect((await payoutOf(id)).minedHash).toBe((await attemptsOf(mined.id))[0]!.txHash);
    await chain.reorg(1);
    const afterReorg = await pass();
    expect(afterReorg.reorged).toBe(1);
    expect(await settle(id)).toBe("completed");
    await expectChainMatchesLedger(id, to);
  });

  it("never moves a payout again once it is deep enough, whatever a shallower reorg does", async () => {
    const to = freshRecipient();
    const { id } = await approvedTransfer(to);
    expect(await settle(id)).toBe("completed");
    const before = await payoutOf(id);
    await chain.reorg(2);
    await chain.mine(2);
    expect(await pass()).toMatchObject({ completed: 0, reorged: 0, failed: 0 });
    expect(await payoutOf(id)).toEqual(before);
    await expectChainMatchesLedger(id, to);
  });

  describe("with blocks mined on demand", () => {
    const automine = async (on: boolean) => anvil().setAutomine(on);
    afterEach(async () => {
      await automine(true);
      await chain.mine(1);
    });

    it("broadcasts the same signed bytes again after anvil_dropTransaction", async () => {
      await automine(false);
      const to = freshRecipient();
      const { id } = await approvedTransfer(to);
      await pass();
      const payout = await payoutOf(id);
      const [attempt] = await attemptsOf(payout.id);
      await anvil().dropTransaction({ hash: attempt!.txHash as Hex });
      await chain.mine(1);
      expect((await pass()).rebroadcast).toBe(0);
      expect(await pass({ payoutRebroadcastAfterMs: 0 })).toMatchObject({ rebroadcast: 1, replaced: 0 });
      await chain.mine(3);
      expect(await settle(id)).toBe("completed");
      expect(await attemptsOf(payout.id)).toHaveLength(1);
      expect((await payoutOf(id)).minedHash).toBe(attempt!.txHash);
      await expectChainMatchesLedger(id, to);
    });

    it("replaces a stuck payout at the same nonce with a higher fee once the market moved; both hashes kept, the mined one counts", async () => {
      await automine(false);
      const to = freshRecipient();
      const { id } = await approvedTransfer(to);
      await pass();
      const payout = await payoutOf(id);
      // The base fee jumps past the payout's fee (a block too dear for it): a replacement is worth it now
      // (in a flat market the same bytes would go again, decision 058).
      await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: 20_000_000_000n });
      await chain.mine(1);
      expect(await pass({ payoutReplaceAfterMs: 0 })).toMatchObject({ replaced: 1 });
      const attempts = await attemptsOf(payout.id);
      expect(attempts).toHaveLength(2);
      expect(attempts[0]!.nonce).toBe(attempts[1]!.nonce);
      expect(BigInt(attempts[1]!.maxFeePerGas)).toBeGreaterThan(BigInt(attempts[0]!.maxFeePerGas));
      await chain.mine(3);
      expect(await settle(id)).toBe("completed");
      const mined = (await payoutOf(id)).minedHash;
      expect(attempts.map((a) => a.txHash)).toContain(mined);
      await expectChainMatchesLedger(id, to);
    });
  });

  it("fails a payout to a blacklisted address before signing, releases the hold and says why", async () => {
    const to = freshRecipient();
    await ownerCall("blacklist", [to]);
    const { id, customer } = await approvedTransfer(to);
    expect(await pass()).toMatchObject({ failed: 1, signed: 0 });
    expect((await receiptOf(customer, id)).onChain).toMatchObject({
      txHash: null,
      failureReason: PAYOUT_MESSAGES.blacklisted,
    });
    const payout = await payoutOf(id);
    expect(payout).toMatchObject({ status: "failed", failureReason: PAYOUT_MESSAGES.blacklisted });
    expect(await attemptsOf(payout.id)).toEqual([]);
    expect((await transferOf(id)).status).toBe("failed");
    await expectChainMatchesLedger(id, to);
  });

  it("cancels a signed payout whose address is blacklisted before broadcast, at its nonce", async () => {
    const to = freshRecipient();
    const { id } = await approvedTransfer(to);
    await pass({}, async (step) => {
      if (step === "after_sign") await ownerCall("blacklist", [to]);
    });
    const payout = await payoutOf(id);
    const attempts = await attemptsOf(payout.id);
    expect(attempts.map((a) => a.kind)).toEqual(["transfer", "cancel"]);
    expect(await settle(id)).toBe("failed");
    expect(await payoutOf(id)).toMatchObject({
      status: "failed",
      failureReason: PAYOUT_MESSAGES.blacklisted,
      minedHash: attempts[1]!.txHash,
    });
    await expectChainMatchesLedger(id, to);
  });

  it("refuses destinations that cannot be right: no checksum, the token, Pillar's own hot wallet", async () => {
    for (const [to, why] of [
      [freshRecipient(), PAYOUT_MESSAGES.noChecksum],
      [getAddress(chain.token), PAYOUT_MESSAGES.tokenContract],
      [hot.address, PAYOUT_MESSAGES.ownAddress],
    ] as const) {
      const { id } = await approvedTransfer(to, "5.00");
      if (why === PAYOUT_MESSAGES.noChecksum) {
        // The request refuses an unconfirmed all-lowercase address (below), so only a transfer made before that
        // rule, or while settlement was manual, reaches the worker with one: it still refuses to sign it.
        await t.database.db
          .update(transferRequests)
          .set({ cryptoAddress: to.toLowerCase() })
          .where(eq(transferRequests.id, id));
        await t.database.db
          .update(payouts)
          .set({ toAddress: to.toLowerCase() })
          .where(eq(payouts.transferRequestId, id));
      }
      await pass();
      expect(await payoutOf(id)).toMatchObject({ status: "failed", failureReason: why });
      expect((await transferOf(id)).status).toBe("failed");
    }
  });

  it("sends to an all-lowercase address only once the customer confirmed it, to its EIP-55 form; refuses a broken checksum", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const to = freshRecipient();
    const lower = to.toLowerCase();
    // Unconfirmed: 422 with the flag the review step reads, and nothing held or written.
    const refused = await requestTransfer(t.app, customer, { amount: "20.00", cryptoAddress: lower });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      reason: "unchecksummed_address",
      unchecksummedAddress: true,
      message: TRANSFER_MESSAGES.unchecksummedAddress,
    });
    // Capitals only must match the checksum like any mixed case (an EIP-55 address can be all capitals).
    const upper = await requestTransfer(t.app, customer, {
      amount: "20.00",
      cryptoAddress: `0x${lower.slice(2).toUpperCase()}`,
      confirmUnchecksummedAddress: true,
    });
    expect(upper.json()).toMatchObject({ addressChecksumMismatch: true });
    // Mixed case with one letter's case flipped: a typing mistake the checksum catches, confirmed or not.
    const i = [...to].findIndex((c, n) => n > 1 && /[a-fA-F]/.test(c));
    const flipped = `${to.slice(0, i)}${to[i] === to[i]!.toLowerCase() ? to[i]!.toUpperCase() : to[i]!.toLowerCase()}${to.slice(i + 1)}`;
    const broken = await requestTransfer(t.app, customer, {
      amount: "20.00",
      cryptoAddress: flipped,
      confirmUnchecksummedAddress: true,
    });
    expect(broken.statusCode, broken.body).toBe(422);
    expect(broken.json()).toMatchObject({
      reason: "address_checksum_mismatch",
      addressChecksumMismatch: true,
      message: TRANSFER_MESSAGES.addressChecksumMismatch,
    });
    expect(
      await t.database.db
        .select()
        .from(transferRequests)
        .where(eq(transferRequests.userId, customer.user.id)),
    ).toEqual([]);
    expect((await findWallet(t.database.db, customer.user.id))?.held).toBe(0);

    // Confirmed on the review step: accepted, kept in its EIP-55 form, and sent there.
    const res = await requestTransfer(t.app, customer, {
      amount: "20.00",
      cryptoAddress: lower,
      confirmUnchecksummedAddress: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    expect((await transferOf(id)).cryptoAddress).toBe(to);
    expect((await approve(id)).statusCode).toBe(200);
    expect(await settle(id)).toBe("completed");
    await expectChainMatchesLedger(id, to);

    // An EIP-55 address whose checksum capitalises every letter is right as it is: sent, not refused.
    const capitals = await approvedTransfer(ETH_ADDRESS, "5.00");
    expect(await settle(capitals.id)).toBe("completed");
    await expectChainMatchesLedger(capitals.id, ETH_ADDRESS);
  });

  it("fails a payout the paused token reverts, after the confirmations, and releases the hold", async () => {
    const to = freshRecipient();
    const { id } = await approvedTransfer(to);
    await ownerCall("pause");
    try {
      expect(await settle(id)).toBe("failed");
    } finally {
      await ownerCall("unpause");
    }
    expect(await payoutOf(id)).toMatchObject({ status: "failed", failureReason: PAYOUT_MESSAGES.paused });
    await expectChainMatchesLedger(id, to);
  });

  it("keeps payouts waiting (never failed) while the hot wallet is short of USDC, with an alert", async () => {
    const sink = freshRecipient();
    const hotWallet = createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: transport(),
      account: hot,
    });
    const everything = await tokenBalance(hot.address);
    const out = await hotWallet.writeContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "transfer",
      args: [sink, everything],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: out, pollingInterval: 50 });
    outflows.push({ kind: "unknown_outflow", txHash: out.toLowerCase(), units: everything });

    const to = freshRecipient();
    const { id } = await approvedTransfer(to);
    expect(await pass()).toMatchObject({ waiting: "usdc", signed: 0, failed: 0 });
    expect(await payoutOf(id)).toMatchObject({ status: "queued", waitingReason: "usdc" });
    const metrics = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toContain('payouts_waiting{reason="usdc"} 1');

    await chain.mint(hot.address, 1_000_000_000n);
    expect(await settle(id)).toBe("completed");
    expect((await payoutOf(id)).waitingReason).toBeNull();
    await expectChainMatchesLedger(id, to);
  });
  it("approves pending transfers at or below PAYOUT_AUTO_LIMIT without a person, and leaves larger ones to staff", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    const small = freshRecipient();
    const smallId = (await requestTransfer(t.app, customer, { amount: "40.00", cryptoAddress: small })).json()
      .transferRequest.id as string;
    const largeId = (
      await requestTransfer(t.app, customer, { amount: "40.01", cryptoAddress: freshRecipient() })
    ).json().transferRequest.id as string;
    const auto = { payoutAutoLimitCents: 4_000 };
    expect((await pass(auto)).autoApproved).toBe(1);
    expect((await transferOf(largeId)).status).toBe("pending");
    expect(await settle(smallId, auto)).toBe("completed");
    expect((await transferOf(largeId)).status).toBe("pending");
    // The default, 0: nothing goes without staff.
    expect((await pass()).autoApproved).toBe(0);
    expect((await approve(largeId, "cancelled")).statusCode).toBe(200);
    await expectChainMatchesLedger(smallId, small);
  });

  it("screens the address right before signing: a listed one is held under review and never signed", async () => {
    // The listed address in its EIP-55 form: the request refuses a broken checksum before any screening.
    const to = getAddress(LISTED_ETH.toLowerCase());
    const { id } = await approvedTransfer(to);
    // The list arrives after the approval: only the screening at signing can catch it.
    const compliance = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/api/admin/compliance/lists",
      headers: { cookie: compliance.cookie },
      payload: uploadBody(listFiles()),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(await pass()).toMatchObject({ held: 1, signed: 0 });
    const payout = await payoutOf(id);
    expect(payout.status).toBe("held");
    expect(await attemptsOf(payout.id)).toEqual([]);
    expect((await pass()).signed).toBe(0);
    // The list's own re-screen may have filed the hit first; either way the customer's case holds the payout.
    const hits = await t.database.db
      .select()
      .from(complianceHits)
      .where(eq(complianceHits.userId, (await transferOf(id)).userId!));
    expect(hits.filter((h) => h.subjectType === "address")).not.toEqual([]);
    expect((await transferOf(id)).status).toBe("processing");
    expect(await tokenBalance(getAddress(to.toLowerCase()))).toBe(0n);
  });
});
