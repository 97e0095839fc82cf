import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterEach, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import { insufficientFundsMessage } from "@/contract/transfers";
import { chainDeposits, chainWatchState, journalEntries, transactions } from "@/server/db/schema";
import { chainClient } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import type { ChainConfig } from "@/server/lib/chain-config";
import { parseChainConfig } from "@/server/lib/chain-config";
import { findWallet, verifyLedger } from "@/server/lib/ledger";
import {
  ANVIL_KEYS,
  chainEnv,
  expectReconciled,
  setUpTestChain,
  type TestChain,
} from "@/tests/support/anvil";
import { createApprovedCustomer, requestTransfer } from "@/tests/support/money";
import { waitFor } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// Decision 056: a deposit is one log of one transaction wherever a reorg mines it; a booked
// deposit a reorg deeper than the confirmations removes is reversed, and credited once if it comes back; a large
// deposit waits for a finalized block. Real anvil, real PostgreSQL; every test ends with the ledger check and a
// reconciliation of chain and ledger.
/** anvil's funded account 3: sends a token transfer ahead of the deposit in the re-mined block. */
const OTHER_KEY: Hex = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const root = path.resolve(import.meta.dirname, "../..");
const STRANGER = getAddress("0x2222222222222222222222222222222222222222");

/** A token transfer signed now and sent later, as often as a test wants: the same transaction every time. */
async function signTransfer(chain: TestChain, key: Hex, to: Address, units: bigint): Promise<Hex> {
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({
    chain: { ...foundry, id: chain.node.chainId },
    transport: http(chain.node.url),
    account,
  });
  const request = await wallet.prepareTransactionRequest({
    to: chain.token,
    data: encodeFunctionData({ abi: pillarUsdAbi, functionName: "transfer", args: [to, units] }),
    gas: 100_000n,
    // Far above anvil's base fee, so the bytes stay valid after any number of blocks.
    maxFeePerGas: 50_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  return wallet.signTransaction(request);
}

const sendRaw = async (client: PublicClient, raw: Hex) => {
  const hash = await client.sendRawTransaction({ serializedTransaction: raw });
  return client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
};

/** anvil_reorg: replaces the last `depth` blocks, mining `txs` (raw, in this order) into the first new one. */
async function reorgWith(chain: TestChain, depth: number, txs: Hex[]) {
  await chain.publicClient.request({
    method: "anvil_reorg" as never,
    params: [depth, txs.map((raw) => [raw, 0])] as never,
  });
}

describe.skipIf(!process.env.DATABASE_URL)("deposits through deep reorgs on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({ ...chainEnv(chain), RATE_LIMIT_SCALE: "100" }));
  const config = () => t.app.deps.config.chain!;
  const pass = (over: Partial<ChainConfig> = {}) =>
    watchDepositsOnce(t.database.db, { ...config(), ...over }, chainClient(config()));

  afterEach(async () => {
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
    await expectReconciled(chain, t.database, config());
  });

  const depositAddress = async (customer: SignedInUser) => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Extract<DepositInfo, { mode: "chain" }>;
  };
  const wallet = async (customer: SignedInUser) => {
    const w = await findWallet(t.database.db, customer.user.id);
    const [owed] = await t.database.query<{ owed: string }>(
      "select returned_owed::text as owed from ledger_accounts where user_id = $1",
      [customer.user.id],
    );
    return { balance: w?.balance ?? 0, held: w?.held ?? 0, owed: Number(owed?.owed ?? 0) };
  };
  const rowsOf = (hash: string) =>
    t.database.db.select().from(chainDeposits).where(eq(chainDeposits.txHash, hash.toLowerCase()));
  const historyOf = (customer: SignedInUser) =>
    t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, customer.user.id))
      .orderBy(transactions.createdAt);
  const noticesOf = (customer: SignedInUser) =>
    t.database.query<{ title: string; body: string }>(
      "select title, body from notifications where user_id = $1 order by created_at, id",
      [customer.user.id],
    );
  /** A $15.00 deposit from anvil's payer, signed once: the bytes can be mined again after a reorg. */
  const signedDeposit = async (to: string, units = 15_000_000n) => {
    const payer = privateKeyToAccount(ANVIL_KEYS.payer).address;
    await chain.mint(payer, units);
    return signTransfer(chain, ANVIL_KEYS.payer, to as Address, units);
  };
  const signedOther = async () => {
    await chain.mint(privateKeyToAccount(OTHER_KEY).address, 1_000_000n);
    return signTransfer(chain, OTHER_KEY, STRANGER, 1_000_000n);
  };

  it("credits once a deposit that a reorg deeper than the confirmations mines again at another place in its block", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositAddress(customer);
    const deposit = await signedDeposit(address);
    const other = await signedOther();
    const first = await sendRaw(chain.publicClient, deposit);
    await chain.mine(2);
    expect(await pass()).toMatchObject({ seen: 1, credited: 1 });
    expect((await wallet(customer)).balance).toBe(1500);
    const [before] = await rowsOf(first.transactionHash);
    expect(before).toMatchObject({ status: "credited", logIndex: 0 });

    // Three blocks replaced (as deep as the confirmations): the same deposit is mined again behind another
    // transfer, so its log has another index in its block and the same place in its transaction.
    await reorgWith(chain, 3, [other, deposit]);
    const again = await chain.publicClient.getTransactionReceipt({ hash: first.transactionHash });
    expect(again.blockHash).not.toBe(first.blockHash);
    expect(again.logs[0]!.logIndex).toBe(1);
    await chain.mine(3);
    const report = await pass();
    // One transfer of $15.00, one credit of $15.00 (the block-log-index key made it $30.00).
    expect((await wallet(customer)).balance).toBe(1500);
    expect(report).toMatchObject({ seen: 0, credited: 0, reversed: 0 });

    const rows = await rowsOf(first.transactionHash);
    expect(rows).toMatchObject([
      {
        id: before!.id,
        status: "credited",
        txLogIndex: 0,
        logIndex: 1,
        blockHash: again.blockHash.toLowerCase(),
        blockNumber: Number(again.blockNumber),
      },
    ]);
    expect((await wallet(customer)).balance).toBe(1500);
    const credits = (await historyOf(customer)).filter((r) => r.sourceType === "usdc_deposit");
    expect(credits).toHaveLength(1);

    // Read again from block 0: still one deposit, one credit.
    await t.database.db.update(chainWatchState).set({ nextBlock: 0 });
    await chain.mine(1);
    expect(await pass()).toMatchObject({ seen: 0, credited: 0, reversed: 0 });
    expect((await wallet(customer)).balance).toBe(1500);
  });

  it("reverses a credited deposit a deep reorg removed, tells the customer, and credits it once when it is mined again", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositAddress(customer);
    const deposit = await signedDeposit(address);
    const other = await signedOther();
    const mined = await sendRaw(chain.publicClient, deposit);
    await chain.mine(2);
    expect(await pass()).toMatchObject({ credited: 1 });
    expect((await wallet(customer)).balance).toBe(1500);

    // Deeper than the confirmations, and the transaction is not mined again (anvil drops it).
    await chain.reorg(3);
    expect(await pass()).toMatchObject({ reversed: 1, credited: 0 });
    expect(await wallet(customer)).toEqual({ balance: 0, held: 0, owed: 0 });
    const [reversed] = await rowsOf(mined.transactionHash);
    expect(reversed).toMatchObject({ status: "reversed", txLogIndex: 0 });
    const [entry] = await t.database.db
      .select()
      .from(journalEntries)
      .where(eq(journalEntries.id, reversed!.reversalEntryId!));
    expect(entry).toMatchObject({ kind: "usdc_deposit_reversal", referenceId: reversed!.id });

    // The customer reads it in plain words: a history row, an in-app notice, the deposit list.
    const history = await historyOf(customer);
    expect(history.map((r) => [r.type, r.description, r.status, r.amount])).toEqual([
      ["credit", "USDC deposit", "completed", 1500],
      ["debit", "USDC deposit reversed", "completed", 1500],
    ]);
    const notices = await noticesOf(customer);
    expect(notices.map((n) => n.title)).toContain("$15.00 USDC deposit reversed");
    expect(notices.find((n) => n.title.includes("reversed"))?.body).toContain(
      "If the transaction is confirmed again",
    );
    expect((await depositAddress(customer)).deposits[0]).toMatchObject({ status: "reversed" });
    const shown = await t.app.inject({
      method: "GET",
      url: "/api/transactions",
      headers: { cookie: customer.cookie },
    });
    expect(shown.body).toContain("USDC deposit reversed");

    // Another pass changes nothing: reversed once.
    expect(await pass()).toMatchObject({ reversed: 0, credited: 0, returned: 0 });

    // The same transaction is mined again, behind another transfer: pending, then credited once after the
    // confirmations. Net: credited exactly once.
    await reorgWith(chain, 1, [other, deposit]);
    expect(await pass()).toMatchObject({ returned: 1, credited: 0 });
    expect(await rowsOf(mined.transactionHash)).toMatchObject([{ status: "pending", logIndex: 1 }]);
    expect((await wallet(customer)).balance).toBe(0);
    await chain.mine(2);
    expect(await pass()).toMatchObject({ credited: 1 });
    expect(await rowsOf(mined.transactionHash)).toMatchObject([{ id: reversed!.id, status: "credited" }]);
    expect((await wallet(customer)).balance).toBe(1500);
    expect((await historyOf(customer)).map((r) => [r.type, r.description])).toEqual([
      ["credit", "USDC deposit"],
      ["debit", "USDC deposit reversed"],
      ["credit", "USDC deposit"],
    ]);
    await t.database.db.update(chainWatchState).set({ nextBlock: 0 });
    await chain.mine(1);
    expect(await pass()).toMatchObject({ seen: 0, credited: 0, reversed: 0, returned: 0 });
    expect((await wallet(customer)).balance).toBe(1500);
  });

  it("holds a customer who spent a deposit before its reversal below zero: sends refused, staff see a returned deposit", async () => {
    const customer = await createApprovedCustomer(t.database);
    const payee = await createApprovedCustomer(t.database);
    const { address } = await depositAddress(customer);
    const deposit = await signedDeposit(address);
    const mined = await sendRaw(chain.publicClient, deposit);
    await chain.mine(2);
    expect(await pass()).toMatchObject({ credited: 1 });
    let keys = 0;
    const payByTag = (from: SignedInUser, to: SignedInUser, amount: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/transfer/tag-payments",
        headers: { cookie: from.cookie, "idempotency-key": `returned-${++keys}-${from.user.id}` },
        payload: { tag: `$${to.user.pillarTag}`, amount },
      });
    const paid = await payByTag(customer, payee, "10.00");
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await wallet(customer)).balance).toBe(500);

    await chain.reorg(3);
    expect(await pass()).toMatchObject({ reversed: 1 });
    // $10.00 of the $15.00 was spent: the wallet is $10.00 below zero, and owes exactly that.
    expect(await wallet(customer)).toEqual({ balance: -1000, held: 0, owed: 1000 });
    const reversedNotice = (await noticesOf(customer)).find((n) => n.title.includes("reversed"));
    expect(reversedNotice?.body).toContain("your balance is below zero");

    // Nothing leaves while it is below zero: a payment by $tag, a USDC transfer.
    const refusedTag = await payByTag(customer, payee, "1.00");
    expect(refusedTag.statusCode, refusedTag.body).toBeGreaterThanOrEqual(400);
    expect(refusedTag.statusCode).toBeLessThan(500);
    const refusedTransfer = await requestTransfer(t.app, customer, { amount: "1.00" });
    expect(refusedTransfer.statusCode, refusedTransfer.body).toBe(422);
    // The transfer function shows a negative available balance as $0.00; the notice said why.
    expect(refusedTransfer.json().message).toBe(insufficientFundsMessage("$0.00"));
    expect(await wallet(customer)).toEqual({ balance: -1000, held: 0, owed: 1000 });

    // Staff see it: the Settlement tab lists the returned deposit and the customer below zero.
    const finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const overview = await t.app.inject({
      method: "GET",
      url: "/api/admin/settlement",
      headers: { cookie: finance.cookie },
    });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().depositCounts).toMatchObject({ reversed: expect.any(Number) });
    expect(
      overview
        .json()
        .deposits.find((d: { txHash: string }) => d.txHash === mined.transactionHash.toLowerCase()),
    ).toMatchObject({ status: "reversed" });
    expect(overview.json().returnedDeposits).toContainEqual(
      expect.objectContaining({ userId: customer.user.id, balance: "-$10.00", owed: "$10.00" }),
    );

    // Money that arrives pays it back first: $4.00 leaves it $6.00 below zero, still held.
    expect((await payByTag(payee, customer, "4.00")).statusCode).toBe(201);
    expect(await wallet(customer)).toEqual({ balance: -600, held: 0, owed: 600 });
    expect((await payByTag(customer, payee, "1.00")).statusCode).not.toBe(201);
    // A new deposit covers it: the hold on sending ends and what is left is the customer's.
    const more = await chain.mint(address as Address, 20_000_000n);
    await chain.mine(2);
    expect(await pass()).toMatchObject({ credited: 1 });
    expect(await rowsOf(more)).toMatchObject([{ status: "credited" }]);
    expect(await wallet(customer)).toEqual({ balance: 1400, held: 0, owed: 0 });
    expect((await payByTag(customer, payee, "1.00")).statusCode).toBe(201);
    expect(await wallet(customer)).toEqual({ balance: 1300, held: 0, owed: 0 });
  });

  it("reverses exactly once when the watcher is killed mid-reversal", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositAddress(customer);
    const mined = await sendRaw(chain.publicClient, await signedDeposit(address, 6_000_000n));
    await chain.mine(2);
    expect(await pass()).toMatchObject({ credited: 1 });
    await chain.reorg(3);

    // Hold the customer's wallet so the reversal waits inside the pass's transaction, then SIGKILL it there.
    const blocker = new pg.Client({ connectionString: t.database.url });
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query("select 1 from ledger_accounts where user_id = $1 for update", [customer.user.id]);
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/deposit-watch-once.ts"], {
      cwd: root,
      env: { ...process.env, ...chainEnv(chain), DATABASE_URL: t.database.url!, DATA_DIR: t.dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await waitFor(
      "the watcher to wait on the wallet lock",
      async () => {
        await blocker.query("select pg_stat_clear_snapshot()");
        const { rows } = await blocker.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return rows[0].n > 0;
      },
      { timeoutMs: 30_000 },
    );
    child.kill("SIGKILL");
    await exited;
    await blocker.query("commit");
    await blocker.end();
    // Killed mid-reversal: nothing of it happened.
    expect(await rowsOf(mined.transactionHash)).toMatchObject([{ status: "credited" }]);
    expect((await wallet(customer)).balance).toBe(600);

    await waitFor("a pass to run", async () => (await pass()) !== null);
    await Promise.all([pass(), pass()]);
    expect(await rowsOf(mined.transactionHash)).toMatchObject([{ status: "reversed" }]);
    expect(await wallet(customer)).toEqual({ balance: 0, held: 0, owed: 0 });
    const reversals = (await historyOf(customer)).filter((r) => r.description === "USDC deposit reversed");
    expect(reversals).toHaveLength(1);
  });

  it("makes a deposit above CHAIN_FINALIZED_ABOVE wait for a finalized block, and a small one only for the confirmations", async () => {
    // anvil answers `finalized` 64 blocks below its head (two 32-slot epochs), and block 0 before that.
    // The test client caches the block number for seconds: every height here is read uncached.
    const headNow = async () => Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    await chain.mine(70);
    const head = await headNow();
    const finalized = await chain.publicClient.getBlock({ blockTag: "finalized" });
    expect(Number(finalized.number)).toBe(head - 64);

    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositAddress(customer);
    const over = { finalizedAboveCents: 10_000 }; // $100.00
    const small = await chain.mint(address as Address, 5_000_000n);
    const large = await chain.mint(address as Address, 150_000_000n);
    const largeBlock = Number((await chain.publicClient.getTransactionReceipt({ hash: large })).blockNumber);
    await chain.mine(2);
    expect(await pass(over)).toMatchObject({ seen: 2, credited: 1 });
    expect(await rowsOf(small)).toMatchObject([{ status: "credited" }]);
    expect(await rowsOf(large)).toMatchObject([{ status: "pending" }]);

    // One block short of finalized: still waiting; at it: credited.
    await chain.mine(largeBlock + 63 - (await headNow()));
    expect(await pass(over)).toMatchObject({ credited: 0 });
    expect(await rowsOf(large)).toMatchObject([{ status: "pending" }]);
    await chain.mine(1);
    expect(await pass(over)).toMatchObject({ credited: 1 });
    expect(await rowsOf(large)).toMatchObject([{ status: "credited", amountCents: 15_000 }]);
    expect((await wallet(customer)).balance).toBe(15_500);

    // The variable is read in dollars, and a bad value names it.
    const env = chainEnv(chain);
    expect(parseChainConfig({ ...env, CHAIN_FINALIZED_ABOVE: "2,500.00" }).chain?.finalizedAboveCents).toBe(
      250_000,
    );
    expect(parseChainConfig(env).chain?.finalizedAboveCents).toBeNull();
    expect(parseChainConfig({ ...env, CHAIN_FINALIZED_ABOVE: "lots" }).problems[0]).toMatch(
      /^CHAIN_FINALIZED_ABOVE must be a dollar amount/,
    );
  });
});
