import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { type Address, getAddress, type Hex, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import {
  chainDeposits,
  depositAddresses,
  journalEntries,
  treasuryMovementAttempts,
  treasuryMovements,
} from "@/server/db/schema";
import { chainClient } from "@/server/features/settlement/chain-config";
import { depositForwarderFactoryAbi } from "@/server/features/settlement/contracts/deposit-forwarders.artifact";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import {
  depositAddressAt,
  ensureDepositAddress,
  forwarderSalt,
} from "@/server/features/settlement/deposit-addresses";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runTreasuryPass, type TreasuryStep } from "@/server/features/settlement/treasury-worker";
import { findWallet, verifyLedger } from "@/server/lib/ledger";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createApprovedCustomer } from "@/tests/support/money";
import { enrolTotp, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// The treasury on a real anvil and real PostgreSQL (decision 060): CREATE2 deposit forwarders swept into the hot
// wallet, the surplus above the ceiling sent to cold. Every test ends with the ledger invariant and a clean
// reconciliation, and checks the chain itself: each sweep moved the address's money once, to the hot wallet.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const root = path.resolve(import.meta.dirname, "../..");
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet).address;
const payer = privateKeyToAccount(ANVIL_KEYS.payer).address;
const TREASURY_ENV = { SWEEP_MIN_USDC: "1.00", SWEEP_MIN_AGE: "0" };

describe.skipIf(!process.env.DATABASE_URL)("the treasury on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({ ...chainEnv(chain, 3, true), ...TREASURY_ENV }));
  const config = () => t.app.deps.config.chain!;
  const watch = () => watchDepositsOnce(t.database.db, config(), chainClient(config()));
  const pass = (over: Partial<ReturnType<typeof config>> = {}) =>
    runTreasuryPass(t.database.db, { ...config(), ...over });
  const balance = (address: Address) =>
    chain.publicClient.readContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "balanceOf",
      args: [address],
    });
  const transfersFrom = (from: Address) =>
    chain.publicClient.getLogs({ address: chain.token, event: TRANSFER, args: { from }, fromBlock: 0n });
  const entries = async () =>
    (await t.database.db.select({ id: journalEntries.id }).from(journalEntries)).length;
  const balanceOf = async (customer: SignedInUser) =>
    (await findWallet(t.database.db, customer.user.id))?.balance ?? 0;
  const movementsFrom = (address: Address) =>
    t.database.db
      .select()
      .from(treasuryMovements)
      .where(eq(treasuryMovements.fromAddress, address.toLowerCase()));

  beforeAll(async () => {
    await chain.mint(payer, 1_000_000_000n);
  });
  afterEach(async () => {
    expect((await verifyLedger(t.database.db)).problems).toEqual([]);
    await expectReconciled(chain, t.database, config());
  });

  const depositAddressOf = async (customer: SignedInUser) => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return getAddress((res.json() as Extract<DepositInfo, { mode: "chain" }>).address);
  };

  /** A customer with `units` deposited to their CREATE2 address and credited. */
  async function creditedDeposit(units: bigint) {
    const customer = await createApprovedCustomer(t.database);
    const address = await depositAddressOf(customer);
    await chain.send(ANVIL_KEYS.payer, address, units);
    await chain.mine(config().confirmations);
    await watch();
    const [row] = await t.database.db
      .select()
      .from(chainDeposits)
      .where(eq(chainDeposits.toAddress, address.toLowerCase()));
    expect(row?.status).toBe("credited");
    return { customer, address };
  }

  /** Passes, a block mined after each, until every movement from `address` is settled. */
  async function settle(address: Address, limit = 8) {
    for (let i = 0; i < limit; i += 1) {
      await pass();
      const rows = await movementsFrom(address);
      if (rows.length > 0 && rows.every((r) => r.status === "completed" || r.status === "failed"))
        return rows;
      await chain.mine(1);
    }
    return movementsFrom(address);
  }

  /** The chain moved `address`'s money once, all of it, to the hot wallet; one movement row says so. */
  async function expectSweptOnce(address: Address, units: bigint) {
    const logs = await transfersFrom(address);
    expect(logs.map((l) => [l.args.to, l.args.value])).toEqual([[hot, units]]);
    expect(await balance(address)).toBe(0n);
    const rows = await movementsFrom(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "sweep",
      status: "completed",
      minedUnits: units.toString(),
      minedHash: logs[0]!.transactionHash.toLowerCase(),
    });
  }

  it("gives new customers CREATE2 forwarder addresses, the factory's own, and still credits xpub addresses", async () => {
    const customer = await createApprovedCustomer(t.database);
    const address = await depositAddressOf(customer);
    const [row] = await t.database.db
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.userId, customer.user.id));
    expect(row).toMatchObject({ kind: "create2", salt: forwarderSalt(row!.derivationIndex) });
    const onChain = await chain.publicClient.readContract({
      address: chain.factory,
      abi: depositForwarderFactoryAbi,
      functionName: "addressOf",
      args: [row!.salt as Hex],
    });
    expect(onChain).toBe(address);
    // No code there until the first sweep: a customer can send before anything is deployed.
    expect(await chain.publicClient.getCode({ address })).toBeUndefined();

    // An address from before the factory (the xpub's child) keeps working for deposits, and is never swept:
    // the server holds no key for it.
    const older = await createApprovedCustomer(t.database);
    const xpubAddress = await ensureDepositAddress(t.database.db, chain.xpub, older.user.id, null);
    const [olderRow] = await t.database.db
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.userId, older.user.id));
    expect(olderRow).toMatchObject({ kind: "xpub", salt: null });
    expect(depositAddressAt(chain.xpub, olderRow!.derivationIndex)).toBe(xpubAddress);
    await chain.send(ANVIL_KEYS.payer, xpubAddress, 7_000_000n);
    await chain.mine(config().confirmations);
    await watch();
    expect(await balanceOf(older)).toBe(700);
    await pass();
    expect(await movementsFrom(xpubAddress)).toEqual([]);
    expect(await balance(xpubAddress)).toBe(7_000_000n);
  });

  it("sweeps a credited deposit into the hot wallet after the confirmations, moving no customer money", async () => {
    const { customer, address } = await creditedDeposit(25_000_000n);
    const hotBefore = await balance(hot);
    const entriesBefore = await entries();
    const customerBefore = await balanceOf(customer);

    const first = await pass();
    expect(first).toMatchObject({ queued: 1, signed: 1, broadcast: 1, completed: 0 });
    const [movement] = await movementsFrom(address);
    expect(movement).toMatchObject({ status: "sent", toAddress: hot.toLowerCase(), units: "25000000" });
    // Mined at depth 1 of 3: not completed yet.
    expect(await pass()).toMatchObject({ completed: 0, queued: 0 });
    await settle(address);
    await expectSweptOnce(address, 25_000_000n);
    expect(await balance(hot)).toBe(hotBefore + 25_000_000n);
    // Ledger-neutral: a movement between the bank's own wallets posts nothing, and the customer keeps the money.
    expect(await entries()).toBe(entriesBefore);
    expect(await balanceOf(customer)).toBe(customerBefore);

    // A second deposit to the same address: the forwarder is there now, and the next sweep reuses it.
    await chain.send(ANVIL_KEYS.payer, address, 3_000_000n);
    await chain.mine(config().confirmations);
    await watch();
    await pass();
    await chain.mine(config().confirmations);
    await pass();
    const rows = await movementsFrom(address);
    expect(rows.map((r) => [r.status, r.minedUnits])).toEqual([
      ["completed", "25000000"],
      ["completed", "3000000"],
    ]);
    expect(await balance(address)).toBe(0n);
  });

  it("waits while the chain's fee is above SWEEP_MAX_GAS_GWEI, and below SWEEP_MIN_USDC", async () => {
    const { address } = await creditedDeposit(2_000_000n);
    const tight = { ...config().treasury, sweepMaxFeeWei: "1" };
    expect(await pass({ treasury: tight })).toMatchObject({ queued: 0, waiting: "gas_price" });
    const high = { ...config().treasury, sweepMinCents: 500 };
    expect(await pass({ treasury: high })).toMatchObject({ queued: 0 });
    expect(await movementsFrom(address)).toEqual([]);
    await settle(address);
    await expectSweptOnce(address, 2_000_000n);
  });

  /** A pass in its own process, SIGKILLed at `step` (tests/support/treasury-pass-once.ts). */
  async function killedPass(step: TreasuryStep) {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/treasury-pass-once.ts"], {
      cwd: root,
      env: {
        ...process.env,
        ...chainEnv(chain, 3, true),
        ...TREASURY_ENV,
        DATABASE_URL: t.database.url!,
        DATA_DIR: t.dataDir,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
      if (output.startsWith("ready\n")) child.stdin.end(`${step}\n`);
    });
    child.stderr.on("data", (d) => (output += d));
    return new Promise<{ signal: string | null; output: string }>((resolve) =>
      child.once("exit", (_code, signal) => resolve({ signal, output })),
    );
  }

  it.each(["before_sign", "after_sign", "after_broadcast", "after_mined"] as const)(
    "a sweep killed -9 at %s is finished by the next pass, moving the money once",
    async (step) => {
      const { address } = await creditedDeposit(11_110_000n);
      if (step === "after_mined") {
        await pass();
        await chain.mine(config().confirmations);
      }
      const killed = await killedPass(step);
      expect(killed.signal, killed.output).toBe("SIGKILL");
      const [row] = await movementsFrom(address);
      const expected = {
        before_sign: "queued",
        after_sign: "signed",
        after_broadcast: "signed",
        after_mined: "sent",
      };
      expect(row?.status).toBe(expected[step]);
      await settle(address);
      await expectSweptOnce(address, 11_110_000n);
    },
    60_000,
  );

  it("a sweep reorged out before its depth is sent again, the same bytes, and moves the money once", async () => {
    const { address } = await creditedDeposit(4_200_000n);
    expect(await pass()).toMatchObject({ signed: 1, broadcast: 1 });
    const [sent] = await movementsFrom(address);
    await pass();
    expect((await movementsFrom(address))[0]).toMatchObject({
      minedHash: expect.any(String),
      confirmations: 1,
    });
    const hashBefore = (await movementsFrom(address))[0]!.minedHash;
    // The block with the sweep is replaced by an empty one: the money is back on the deposit address.
    await chain.reorg(1);
    expect(await balance(address)).toBe(4_200_000n);
    const after = await pass();
    expect(after.reorged).toBe(1);
    await settle(address);
    await expectSweptOnce(address, 4_200_000n);
    // The same signed transaction, not a new one: one nonce, one attempt.
    expect((await movementsFrom(address))[0]!.minedHash).toBe(hashBefore);
    expect((await movementsFrom(address))[0]!.nonce).toBe(sent!.nonce);
  });

  it("sends the surplus above HOT_WALLET_CEILING to the cold wallet, once, and reconciles", async () => {
    const cold = privateKeyToAccount(generatePrivateKey()).address;
    await chain.mint(hot, 1_000_000_000n);
    const held = await balance(hot);
    const ceilingCents = Number((held - 400_000_000n) / 10_000n); // $400 above the ceiling
    const treasury = { ...config().treasury, coldWallet: cold, hotWalletCeilingCents: ceilingCents };
    const entriesBefore = await entries();
    expect(await pass({ treasury })).toMatchObject({ queued: 1, signed: 1, broadcast: 1 });
    // One open movement to cold at a time: the next pass queues nothing more while it is on its way.
    expect(await pass({ treasury })).toMatchObject({ queued: 0 });
    await chain.mine(config().confirmations);
    expect(await pass({ treasury })).toMatchObject({ completed: 1 });
    expect(await balance(cold)).toBe(400_000_000n);
    expect(await balance(hot)).toBe(held - 400_000_000n);
    expect(await pass({ treasury })).toMatchObject({ queued: 0 });
    const [row] = await movementsFrom(hot);
    expect(row).toMatchObject({ kind: "to_cold", status: "completed", minedUnits: "400000000" });
    expect(await entries()).toBe(entriesBefore);
  });

  describe("returns (maker-checker)", () => {
    type Staff = SignedInUser & { secret: string };
    let maker: Staff;
    let checker: Staff;
    const financeMember = async (): Promise<Staff> => {
      const member = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
      return { ...member, secret: (await enrolTotp(t.app, member.cookie)).secret };
    };
    const stepUp = (who: Staff) =>
      stepUpWithTotp(t.app, t.database, { id: who.user.id, cookie: who.cookie, secret: who.secret });
    const post = (who: SignedInUser, url: string, payload?: object) =>
      t.app.inject({ method: "POST", url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
    beforeAll(async () => {
      maker = await financeMember();
      checker = await financeMember();
      await chain.mint(hot, 1_000_000n);
    });

    /** A sub-cent deposit (never credited) from the payer to a customer's address. */
    async function dust(units: bigint) {
      const customer = await createApprovedCustomer(t.database);
      const address = await depositAddressOf(customer);
      await chain.send(ANVIL_KEYS.payer, address, units);
      await chain.mine(config().confirmations);
      await watch();
      const [row] = await t.database.db
        .select()
        .from(chainDeposits)
        .where(eq(chainDeposits.toAddress, address.toLowerCase()));
      expect(row).toMatchObject({ status: "below_cent", amountCents: 0 });
      return row!;
    }

    /** Proposed by the maker, approved by the checker: the return movement is queued. */
    async function approvedReturn(depositId: string) {
      await stepUp(maker);
      const proposed = await post(maker, `/api/admin/settlement/deposits/${depositId}/return`, {
        reason: "Below one cent: back to the sender",
      });
      expect(proposed.statusCode, proposed.body).toBe(202);
      const approvalId = proposed.json().approval.id as string;
      await stepUp(checker);
      const approved = await post(checker, `/api/admin/approvals/${approvalId}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      return approvalId;
    }

    it("returns dust to its sender only with two different finance members, once, posting nothing", async () => {
      const deposit = await dust(4_321n);
      const entriesBefore = await entries();
      const url = `/api/admin/settlement/deposits/${deposit.id}/return`;
      // No step-up, no reason, an unknown deposit: refused, nothing written.
      expect((await post(maker, url, { reason: "Back" })).json().reason).toBe("step_up_required");
      await stepUp(maker);
      expect((await post(maker, url, { reason: " " })).statusCode).toBe(400);
      expect(
        (await post(maker, `/api/admin/settlement/deposits/${crypto.randomUUID()}/return`, { reason: "x" }))
          .statusCode,
      ).toBe(404);
      const proposed = await post(maker, url, { reason: "Below one cent: back to the sender" });
      expect(proposed.statusCode, proposed.body).toBe(202);
      const approvalId = proposed.json().approval.id as string;
      // The same member cannot approve their own proposal: nothing is queued.
      await stepUp(maker);
      const own = await post(maker, `/api/admin/approvals/${approvalId}/approve`, {});
      expect(own.statusCode).toBe(403);
      expect(own.json().reason).toBe("self_approval");
      expect(
        await t.database.db
          .select()
          .from(treasuryMovements)
          .where(eq(treasuryMovements.depositId, deposit.id)),
      ).toEqual([]);
      // A second proposal for the same deposit waits on the first.
      expect((await post(maker, url, { reason: "Again" })).statusCode).toBe(409);

      await stepUp(checker);
      const approved = await post(checker, `/api/admin/approvals/${approvalId}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await pass()).toMatchObject({ signed: 1, broadcast: 1 });
      await chain.mine(config().confirmations);
      expect(await pass()).toMatchObject({ completed: 1 });
      const [movement] = await t.database.db
        .select()
        .from(treasuryMovements)
        .where(eq(treasuryMovements.depositId, deposit.id));
      expect(movement).toMatchObject({ kind: "return", status: "completed", minedUnits: "4321", approvalId });
      const [row] = await t.database.db.select().from(chainDeposits).where(eq(chainDeposits.id, deposit.id));
      expect(row!.returnedBy).toBe(movement!.id);
      // On chain: one transfer from the hot wallet back to the sender, for the deposit's exact units.
      const back = await transfersFrom(hot);
      expect(back.filter((l) => l.transactionHash.toLowerCase() === movement!.minedHash)).toHaveLength(1);
      expect(back.find((l) => l.transactionHash.toLowerCase() === movement!.minedHash)!.args).toMatchObject({
        to: getAddress(deposit.fromAddress),
        value: 4_321n,
      });
      // Ledger: nothing. The deposit was never booked; the chain's surplus over the ledger is what went back.
      expect(await entries()).toBe(entriesBefore);
      // Returned: a second return is refused.
      await stepUp(maker);
      expect((await post(maker, url, { reason: "Again" })).json().reason).toBe("deposit_not_returnable");
    });

    it("returns a deposit its closed account could not take, and never credits it when the account reopens", async () => {
      const customer = await createApprovedCustomer(t.database);
      const address = await depositAddressOf(customer);
      // The account closes: its deposits cannot be credited and wait, pending, for staff.
      await t.database.query("update account_requests set superseded_at = now() where user_id = $1", [
        customer.user.id,
      ]);
      await chain.send(ANVIL_KEYS.payer, address, 3_000_000n);
      await chain.mine(config().confirmations);
      await watch();
      const [deposit] = await t.database.db
        .select()
        .from(chainDeposits)
        .where(eq(chainDeposits.toAddress, address.toLowerCase()));
      expect(deposit).toMatchObject({ status: "pending", amountCents: 300 });
      // An uncredited deposit is not swept (sweeps follow credits), so the hot wallet pays the return from its
      // own USDC: it must hold it.
      await chain.mint(hot, 3_000_000n);
      await approvedReturn(deposit!.id);
      // Reopened before the return is even signed: the watcher leaves the deposit alone, it is on its way back.
      await t.database.query("update account_requests set superseded_at = null where user_id = $1", [
        customer.user.id,
      ]);
      await watch();
      expect(await balanceOf(customer)).toBe(0);
      for (let i = 0; i < 6; i += 1) {
        await pass();
        await chain.mine(1);
      }
      await watch();
      const [after] = await t.database.db
        .select()
        .from(chainDeposits)
        .where(eq(chainDeposits.id, deposit!.id));
      expect(after).toMatchObject({ status: "pending", returnedBy: expect.any(String) });
      expect(await balanceOf(customer)).toBe(0);
    });

    /** The return's movement completed, and the chain holds exactly one transfer of it: hot wallet to sender. */
    async function expectReturnedOnce(depositId: string, units: bigint) {
      const rows = await t.database.db
        .select()
        .from(treasuryMovements)
        .where(eq(treasuryMovements.depositId, depositId));
      expect(rows.map((r) => [r.kind, r.status, r.minedUnits])).toEqual([
        ["return", "completed", String(units)],
      ]);
      const attempts = await t.database.db
        .select({ txHash: treasuryMovementAttempts.txHash })
        .from(treasuryMovementAttempts)
        .where(eq(treasuryMovementAttempts.movementId, rows[0]!.id));
      const hashes = new Set(attempts.map((a) => a.txHash.toLowerCase()));
      // Every transaction ever signed for it, looked for on chain: one of them is there, once.
      const back = (await transfersFrom(hot)).filter((l) => hashes.has(l.transactionHash.toLowerCase()));
      expect(back.map((l) => [l.args.to, l.args.value])).toEqual([[payer, units]]);
      expect(back[0]!.transactionHash.toLowerCase()).toBe(rows[0]!.minedHash);
      const [deposit] = await t.database.db
        .select()
        .from(chainDeposits)
        .where(eq(chainDeposits.id, depositId));
      expect(deposit!.returnedBy).toBe(rows[0]!.id);
    }

    it.each(["before_sign", "after_sign", "after_broadcast", "after_mined"] as const)(
      "a return killed -9 at %s is finished by the next pass, sent once, posting nothing",
      async (step) => {
        const units = { before_sign: 701n, after_sign: 702n, after_broadcast: 777n, after_mined: 704n }[step];
        const deposit = await dust(units);
        await approvedReturn(deposit.id);
        const entriesBefore = await entries();
        if (step === "after_mined") {
          await pass();
          await chain.mine(config().confirmations);
        }
        const killed = await killedPass(step);
        expect(killed.signal, killed.output).toBe("SIGKILL");
        const [row] = await t.database.db
          .select()
          .from(treasuryMovements)
          .where(eq(treasuryMovements.depositId, deposit.id));
        const expected = {
          before_sign: "queued",
          after_sign: "signed",
          after_broadcast: "signed",
          after_mined: "sent",
        };
        expect(row?.status).toBe(expected[step]);
        for (let i = 0; i < 6; i += 1) {
          await pass();
          await chain.mine(1);
        }
        await expectReturnedOnce(deposit.id, units);
        expect(await entries()).toBe(entriesBefore);
      },
      60_000,
    );

    it("a return reorged out after it was mined is mined again, the same bytes, and sent once", async () => {
      const deposit = await dust(909n);
      await approvedReturn(deposit.id);
      const movement = async () =>
        (
          await t.database.db
            .select()
            .from(treasuryMovements)
            .where(eq(treasuryMovements.depositId, deposit.id))
        )[0]!;
      expect(await pass()).toMatchObject({ signed: 1, broadcast: 1 });
      await pass();
      const mined = await movement();
      expect(mined).toMatchObject({ status: "sent", minedHash: expect.any(String), confirmations: 1 });
      // The block with the return is replaced by an empty one: the units are back in the hot wallet.
      const hotBefore = await balance(hot);
      await chain.reorg(1);
      expect(await balance(hot)).toBe(hotBefore + 909n);
      expect(await pass()).toMatchObject({ reorged: 1 });
      for (let i = 0; i < 6; i += 1) {
        await pass();
        await chain.mine(1);
      }
      await expectReturnedOnce(deposit.id, 909n);
      const after = await movement();
      expect(after.minedHash).toBe(mined.minedHash);
      expect(after.nonce).toBe(mined.nonce);
    });
  });

  it("a movement to cold reorged out after it was mined is mined again, and moves the surplus once", async () => {
    const cold = privateKeyToAccount(generatePrivateKey()).address;
    await chain.mint(hot, 50_000_000n);
    const held = await balance(hot);
    const ceilingCents = Number((held - 50_000_000n) / 10_000n); // $50 above the ceiling
    const treasury = { ...config().treasury, coldWallet: cold, hotWalletCeilingCents: ceilingCents };
    const entriesBefore = await entries();
    expect(await pass({ treasury })).toMatchObject({ queued: 1, signed: 1, broadcast: 1 });
    await pass({ treasury });
    const toCold = async () =>
      (
        await t.database.db
          .select()
          .from(treasuryMovements)
          .where(eq(treasuryMovements.toAddress, cold.toLowerCase()))
      )[0]!;
    const mined = await toCold();
    expect(mined).toMatchObject({ kind: "to_cold", status: "sent", confirmations: 1 });
    expect(await balance(cold)).toBe(50_000_000n);
    await chain.reorg(1);
    expect(await balance(cold)).toBe(0n);
    expect(await pass({ treasury })).toMatchObject({ reorged: 1, queued: 0 });
    for (let i = 0; i < 6; i += 1) {
      await pass({ treasury });
      await chain.mine(1);
    }
    const done = await toCold();
    expect(done).toMatchObject({ status: "completed", minedUnits: "50000000", minedHash: mined.minedHash });
    const logs = await chain.publicClient.getLogs({
      address: chain.token,
      event: TRANSFER,
      args: { from: hot, to: cold },
      fromBlock: 0n,
    });
    expect(logs.map((l) => [l.transactionHash.toLowerCase(), l.args.value])).toEqual([
      [mined.minedHash, 50_000_000n],
    ]);
    expect(await balance(cold)).toBe(50_000_000n);
    expect(await entries()).toBe(entriesBefore);
  });
});
