import { spawn } from "node:child_process";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import pg from "pg";
import { type Address, getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import { insufficientFundsMessage } from "@/contract/transfers";
import { loadConfig } from "@/server/config";
import {
  auditLog,
  chainDeposits,
  chainWatchState,
  complianceHits,
  depositAddresses,
  holds,
  transactions,
} from "@/server/db/schema";
import { releaseHeldDeposits } from "@/server/features/compliance/held-deposits";
import { chainClient, verifyChain } from "@/server/features/settlement/chain-config";
import { depositAddressAt } from "@/server/features/settlement/deposit-addresses";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runReconciliation } from "@/server/features/settlement/reconciliation";
import { findWallet, openWallet, verifyLedger, walletBalances } from "@/server/lib/ledger";
import {
  ANVIL_KEYS,
  chainEnv,
  expectReconciled,
  type KnownDifference,
  setUpTestChain,
} from "@/tests/support/anvil";
import { createApprovedCustomer, requestTransfer } from "@/tests/support/money";
import { csv, listFiles, SDN_ROWS, sdnRow, uploadBody } from "@/tests/support/ofac-files";
import { waitFor } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// Chain tests need anvil (installed with the devDependencies) and PostgreSQL (the kill test kills a process
// that holds a real connection). Without DATABASE_URL they skip, unless CHAIN=required.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const root = path.resolve(import.meta.dirname, "../..");

describe.skipIf(!process.env.DATABASE_URL)("USDC deposits on anvil", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => chainEnv(chain));
  const config = () => t.app.deps.config.chain!;
  const pass = () => watchDepositsOnce(t.database.db, config(), chainClient(config()));

  const depositInfo = async (customer: SignedInUser) => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Extract<DepositInfo, { mode: "chain" }>;
  };
  const expectLedgerClean = async () => expect((await verifyLedger(t.database.db)).problems).toEqual([]);
  // Every test ends with the ledger check and the chain agreeing with the ledger (decision 038), but for what a
  // test did on purpose: the reorg deeper than the confirmations takes a credited deposit off the chain.
  const lost: KnownDifference[] = [];
  afterEach(async () => {
    await expectLedgerClean();
    await expectReconciled(chain, t.database, config(), lost);
  });
  const balanceOf = async (customer: SignedInUser) =>
    (await findWallet(t.database.db, customer.user.id))?.balance ?? 0;
  const depositRows = (txHash: string) =>
    t.database.db.select().from(chainDeposits).where(eq(chainDeposits.txHash, txHash.toLowerCase()));

  it("refuses bad chain settings at start, naming the variable", async () => {
    const env = chainEnv(chain);
    const problems = (over: Record<string, string>) => {
      try {
        loadConfig({ NODE_ENV: "test", DATA_DIR: t.dataDir, ...env, ...over });
        return "";
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(problems({ CHAIN_ID: "" })).toContain("CHAIN_ID is required");
    expect(problems({ USDC_CONTRACT: "0x1234" })).toContain("USDC_CONTRACT must be a 0x address");
    expect(problems({ PAYOUT_KEY: "0x1234" })).toContain("PAYOUT_KEY must be a 32-byte hex private key");
    expect(problems({ PAYOUT_KEY: `0x${"f".repeat(64)}` })).toContain("PAYOUT_KEY is not a valid");
    expect(problems({ PAYOUT_KEY: "", PAYOUT_KEY_FILE: "/nonexistent/key" })).toContain(
      "PAYOUT_KEY_FILE: cannot read",
    );
    expect(problems({ DEPOSIT_XPUB: "xpub-not-really" })).toContain(
      "DEPOSIT_XPUB must be an extended public key",
    );
    expect(problems({ CHAIN_CONFIRMATIONS: "0" })).toContain("CHAIN_CONFIRMATIONS must be");
    expect(problems({ PAYOUT_AUTO_LIMIT: "-5" })).toContain("PAYOUT_AUTO_LIMIT must be");
    // A key never reaches the message.
    expect(problems({ PAYOUT_KEY: `${ANVIL_KEYS.payer}00` })).not.toContain(ANVIL_KEYS.payer.slice(2, 20));
    // Unset CHAIN_RPC_URL: manual settlement, whatever else is set.
    expect(
      loadConfig({ NODE_ENV: "test", DATA_DIR: t.dataDir, ...env, CHAIN_RPC_URL: "" }).chain,
    ).toBeUndefined();

    const good = loadConfig({ NODE_ENV: "test", DATA_DIR: t.dataDir, ...env }).chain!;
    expect(JSON.stringify(good)).not.toContain(ANVIL_KEYS.hotWallet.slice(2));
    expect(await verifyChain(good)).toEqual([]);
    expect(await verifyChain({ ...good, chainId: 1 })).toEqual([
      `CHAIN_ID is 1 but the node reports ${chain.node.chainId}`,
    ]);
    const empty = getAddress("0x000000000000000000000000000000000000dEaD");
    expect((await verifyChain({ ...good, usdcContract: empty }))[0]).toMatch(/^USDC_CONTRACT .* has no code/);
  });

  it("gives each approved customer one stable address of their own, and none to others", async () => {
    const a = await createApprovedCustomer(t.database);
    const b = await createApprovedCustomer(t.database);
    const first = await depositInfo(a);
    expect(first).toMatchObject({
      mode: "chain",
      token: "USDC",
      chainId: chain.node.chainId,
      confirmations: 3,
    });
    expect(first.warning).toContain("Send only USDC on");
    expect((await depositInfo(a)).address).toBe(first.address);
    const other = await depositInfo(b);
    expect(other.address).not.toBe(first.address);
    // The address is the xpub's child at the stored index: anyone with the seed can move what arrives.
    const [row] = await t.database.db
      .select()
      .from(depositAddresses)
      .where(eq(depositAddresses.userId, a.user.id));
    expect(depositAddressAt(chain.xpub, row!.derivationIndex)).toBe(first.address);

    // No approved account, or staff: no address, and nothing written.
    const unapproved = await createVerifiedUser(t.database);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: unapproved.cookie },
    });
    expect(refused.statusCode).toBe(409);
    const staff = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const staffRes = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: staff.cookie },
    });
    expect(staffRes.statusCode).toBe(403);
    const rows = await t.database.db.select().from(depositAddresses);
    expect(rows.map((r) => r.userId).sort()).toEqual([a.user.id, b.user.id].sort());
    expect((await t.app.inject({ method: "GET", url: "/api/deposits" })).statusCode).toBe(401);
  });

  it("credits a deposit once after the confirmations, in whole cents, and never one to an unknown address", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositInfo(customer);
    const before = await balanceOf(customer);
    const stranger = getAddress("0x1111111111111111111111111111111111111111");
    await chain.mint(stranger, 5_000_000n);
    const hash = await chain.mint(address as Address, 12_345_678n); // $12.345678

    const seen = await pass();
    expect(seen?.seen).toBe(1);
    expect((await depositInfo(customer)).deposits).toMatchObject([{ status: "pending", amount: "$12.34" }]);
    expect(await balanceOf(customer)).toBe(before);
    // Seen is already news: a pushed "deposits" notice refetches the Add money page (decision 044).
    const notices = async () =>
      (
        await t.database.query("select topics from user_events where user_id = $1 order by id", [
          customer.user.id,
        ])
      ).map((r) => (r as { topics: string[] }).topics);
    expect((await notices()).at(-1)).toEqual(["deposits"]);

    await chain.mine(2);
    expect((await pass())?.credited).toBe(1);
    const [row] = await depositRows(hash);
    expect(row).toMatchObject({ status: "credited", amountCents: 1234, dustUnits: 5678, units: "12345678" });
    expect(await balanceOf(customer)).toBe(before + 1234);
    expect((await notices()).at(-1)).toContain("deposits");
    const [credit] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, row!.transactionId!));
    expect(credit).toMatchObject({
      description: "USDC deposit",
      amount: 1234,
      status: "completed",
      type: "credit",
    });
    expect((await depositInfo(customer)).deposits[0]).toMatchObject({
      status: "credited",
      txHash: hash.toLowerCase(),
    });

    // The same log read again (the watcher's cursor rewound to block 0) credits nothing more.
    await t.database.db.update(chainWatchState).set({ nextBlock: 0 });
    await chain.mine(1);
    expect(await pass()).toMatchObject({ fromBlock: 0, seen: 0, credited: 0 });
    expect(await balanceOf(customer)).toBe(before + 1234);
    const strangerRows = await t.database.db
      .select()
      .from(chainDeposits)
      .where(eq(chainDeposits.toAddress, stranger.toLowerCase()));
    expect(strangerRows).toEqual([]);
    await expectLedgerClean();
  });

  it("records a deposit below one cent and credits nothing", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositInfo(customer);
    const hash = await chain.mint(address as Address, 9_999n);
    await chain.mine(3);
    await pass();
    expect(await depositRows(hash)).toMatchObject([
      { status: "below_cent", amountCents: 0, dustUnits: 9999 },
    ]);
    expect(await balanceOf(customer)).toBe(0);
    await expectLedgerClean();
  });

  it("lets a reorg remove a pending deposit, and reverses a credited one a deeper reorg removed", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositInfo(customer);

    const credited = await chain.mint(address as Address, 7_000_000n);
    await chain.mine(2);
    await pass();
    expect(await depositRows(credited)).toMatchObject([{ status: "credited" }]);

    const pending = await chain.mint(address as Address, 3_000_000n);
    await pass();
    expect(await depositRows(pending)).toMatchObject([{ status: "pending" }]);

    // Replace the last 4 blocks: the pending deposit's block and the credited one's are both gone.
    await chain.reorg(4);
    await chain.mine(3);
    const report = await pass();
    expect(report).toMatchObject({ dropped: 1, reversed: 1 });
    expect(await depositRows(pending)).toEqual([]);
    // A reorg past the depth took a credited deposit away: its credit is taken back (decision 056), so the
    // ledger and the chain agree again and reconciliation has nothing to name.
    expect(await depositRows(credited)).toMatchObject([{ status: "reversed" }]);
    expect(await balanceOf(customer)).toBe(0);
    await expectLedgerClean();
  });

  it("credits exactly once when the watcher is killed mid-credit, and one pass runs at a time", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { address } = await depositInfo(customer);
    const hash = await chain.mint(address as Address, 2_500_000n);
    await chain.mine(3);

    // Hold the customer's wallet so the watcher's credit waits inside its transaction, then SIGKILL it there.
    await openWallet(t.database.db, customer.user.id);
    const blocker = new pg.Client({ connectionString: t.database.url });
    await blocker.connect();
    await blocker.query("begin");
    await blocker.query("select 1 from ledger_accounts where user_id = $1 for update", [customer.user.id]);
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/deposit-watch-once.ts"], {
      cwd: root,
      env: { ...process.env, ...chainEnv(chain), DATABASE_URL: t.database.url!, DATA_DIR: t.dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await waitFor(
      "the watcher to wait on the wallet lock",
      async () => {
        // pg_stat_activity is read once per transaction unless its snapshot is cleared.
        await blocker.query("select pg_stat_clear_snapshot()");
        const { rows } = await blocker.query(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return rows[0].n > 0;
      },
      { timeoutMs: 30_000 },
    ).catch(async (err) => {
      const { rows } = await blocker.query(
        "select state, wait_event_type, wait_event, left(query, 80) as q from pg_stat_activity where datname = current_database()",
      );
      throw new Error(`${err.message}\nexit ${child.exitCode}: ${output}\n${JSON.stringify(rows)}`);
    });
    // While it holds the watcher's lock, another pass does nothing.
    expect(await pass()).toBeNull();
    child.kill("SIGKILL");
    await exited;
    await blocker.query("commit");
    await blocker.end();

    expect(await depositRows(hash)).toEqual([]);
    // The killed backend lets go of the advisory lock once PostgreSQL notices; three passes race after it.
    await waitFor("a pass to run", async () => (await pass()) !== null);
    await Promise.all([pass(), pass(), pass()]);
    const rows = await depositRows(hash);
    expect(rows).toMatchObject([{ status: "credited", amountCents: 250 }]);
    const credits = await t.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.userId, customer.user.id), eq(transactions.sourceType, "usdc_deposit")));
    expect(credits).toHaveLength(1);
    expect(await balanceOf(customer)).toBe(250);
    await expectLedgerClean();
  });

  describe("a deposit from an address on the sanctions list", () => {
    // anvil's funded "payer" key signs the listed sender's transfers; the list names its address in small letters.
    const listedSender = privateKeyToAccount(ANVIL_KEYS.payer).address;
    const CASES = "/api/admin/compliance/cases";
    const staff = async () => ({
      maker: await createVerifiedUser(t.database, { staffRoles: ["compliance"] }),
      checker: await createVerifiedUser(t.database, { staffRoles: ["compliance"] }),
    });
    const call = (method: "GET" | "POST", url: string, who: SignedInUser, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { cookie: who.cookie },
        ...(payload === undefined ? {} : { payload }),
      });
    const caseOf = async (who: SignedInUser, customer: SignedInUser, status = "open") => {
      const res = await call("GET", `${CASES}?status=${status}&limit=200`, who);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .items.find((c: { customer: { id: string } | null }) => c.customer?.id === customer.user.id);
    };
    const decide = async (caseId: string, decision: string, maker: SignedInUser, checker: SignedInUser) => {
      const proposed = await call("POST", `${CASES}/${caseId}/decisions`, maker, {
        decision,
        note: `Reviewed the deposit: ${decision}`,
      });
      expect(proposed.statusCode, proposed.body).toBe(200);
      const decisionId = proposed
        .json()
        .case.decisions.find((d: { status: string }) => d.status === "pending").id as string;
      // The maker cannot approve their own decision.
      const self = await call("POST", `${CASES}/${caseId}/decisions/${decisionId}/approve`, maker, {});
      expect(self.statusCode).toBe(403);
      const approved = await call("POST", `${CASES}/${caseId}/decisions/${decisionId}/approve`, checker, {});
      expect(approved.statusCode, approved.body).toBe(200);
      return decisionId;
    };
    const available = async (customer: SignedInUser) =>
      walletBalances(await findWallet(t.database.db, customer.user.id)).availableCents;

    it("books it held under a case, credits a clean one, and releases it once when compliance clears the case", async () => {
      const { maker, checker } = await staff();
      const listed = sdnRow(
        9300,
        "INVENTED DEPOSIT SENDER LTD",
        null,
        "CYBER2",
        `Digital Currency Address - USDC ${listedSender.toLowerCase()}.`,
      );
      const loaded = await call(
        "POST",
        "/api/admin/compliance/lists",
        maker,
        uploadBody(listFiles({ "SDN.CSV": csv([...SDN_ROWS, listed]) })),
      );
      expect(loaded.statusCode, loaded.body).toBe(200);

      const customer = await createApprovedCustomer(t.database);
      const { address } = await depositInfo(customer);
      const clean = await chain.mint(address as Address, 5_000_000n);
      await chain.mint(listedSender, 50_000_000n);
      const dirty = await chain.send(ANVIL_KEYS.payer, address as Address, 12_340_000n);
      await chain.mine(3);
      expect(await pass()).toMatchObject({ credited: 1, held: 1, failed: 0 });

      // Clean: credited and available. Listed: booked, but none of it available.
      expect(await depositRows(clean)).toMatchObject([{ status: "credited", amountCents: 500 }]);
      const [held] = await depositRows(dirty);
      expect(held).toMatchObject({
        status: "held",
        amountCents: 1234,
        fromAddress: listedSender.toLowerCase(),
      });
      expect(await balanceOf(customer)).toBe(1734);
      expect(await available(customer)).toBe(500);
      const [hold] = await t.database.db.select().from(holds).where(eq(holds.id, held!.holdId!));
      expect(hold).toMatchObject({ status: "open", amount: 1234, referenceType: "chain_deposit" });
      const [pendingCredit] = await t.database.db
        .select()
        .from(transactions)
        .where(eq(transactions.id, held!.transactionId!));
      expect(pendingCredit).toMatchObject({ status: "pending", description: "USDC deposit", amount: 1234 });

      // The customer reads "under review" and nothing about why.
      const info = await t.app.inject({
        method: "GET",
        url: "/api/deposits",
        headers: { cookie: customer.cookie },
      });
      const mine = (info.json() as Extract<DepositInfo, { mode: "chain" }>).deposits;
      expect(mine.find((d) => d.txHash === dirty.toLowerCase())?.status).toBe("under_review");
      expect(info.body).not.toMatch(/sanction|ofac|listed|compliance|case/i);
      const summary = await t.app.inject({
        method: "GET",
        url: "/api/account/summary",
        headers: { cookie: customer.cookie },
      });
      expect(summary.statusCode, summary.body).toBe(200);
      expect(summary.body).toContain('"availableBalance":"$5.00"');
      expect(summary.body).not.toMatch(/sanction|ofac|compliance/i);

      // A case opened with the hit, naming the deposit.
      const opened = await caseOf(maker, customer);
      expect(opened).toMatchObject({ heldDeposits: 1, hitCount: 1 });
      const [hit] = await t.database.db
        .select()
        .from(complianceHits)
        .where(eq(complianceHits.caseId, opened.id));
      expect(hit).toMatchObject({ screeningPoint: "deposit", depositId: held!.id, subjectType: "address" });
      expect(held!.caseId).toBe(opened.id);

      // The SAR draft names the deposit's hit and its money.
      const sar = await call("GET", `${CASES}/${opened.id}/report.json`, maker);
      expect(sar.statusCode, sar.body).toBe(200);
      expect(sar.json()).toMatchObject({
        evidence: [{ kind: "sanctions_hit", screeningPoint: "deposit" }],
        activity: { moneyInTotal: "12.34", moneyIn: [{ id: held!.transactionId, status: "pending" }] },
      });

      // Booked with a hold is booked: reconciliation finds nothing about it (an earlier test's deep reorg left
      // its own difference in this file's chain, so the check is on this deposit and the deposits account).
      await chain.mine(3);
      const report = await runReconciliation(t.database.db, config(), { trigger: "staff" });
      const found = await t.database.query<{ kind: string; tx_hash: string | null }>(
        "select kind, tx_hash from reconciliation_items where report_id = $1 and outcome = 'difference'",
        [report!.reportId],
      );
      expect(
        found.filter((i) => i.tx_hash === dirty.toLowerCase() || i.kind === "deposit_account_mismatch"),
      ).toEqual([]);

      // Finance sees it on the Settlement tab as held for review.
      const finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
      const overview = await call("GET", "/api/admin/settlement", finance);
      expect(overview.statusCode, overview.body).toBe(200);
      expect(overview.json().depositCounts).toMatchObject({ under_review: 1 });
      expect(
        overview.json().deposits.find((d: { txHash: string }) => d.txHash === dirty.toLowerCase()),
      ).toMatchObject({ status: "under_review" });

      // The held money cannot leave: a transfer of more than the available balance is refused.
      const tooMuch = await requestTransfer(t.app, customer, { amount: "10.00" });
      expect(tooMuch.statusCode).toBe(422);
      expect(tooMuch.json().message).toBe(insufficientFundsMessage("$5.00"));

      // The watcher reading the same logs again changes nothing: one hit, one hold, one credit per log.
      await t.database.db.update(chainWatchState).set({ nextBlock: 0 });
      await chain.mine(1);
      expect(await pass()).toMatchObject({ seen: 0, credited: 0, held: 0 });
      expect(
        await t.database.db.select().from(complianceHits).where(eq(complianceHits.depositId, held!.id)),
      ).toHaveLength(1);
      expect(await t.database.db.select().from(holds).where(eq(holds.referenceId, held!.id))).toHaveLength(1);

      // Two members clear the case: the deposit becomes available, once.
      const decisionId = await decide(opened.id, "clear", maker, checker);
      expect(await depositRows(dirty)).toMatchObject([{ status: "credited" }]);
      expect(await available(customer)).toBe(1734);
      expect(await balanceOf(customer)).toBe(1734);
      const [completed] = await t.database.db
        .select()
        .from(transactions)
        .where(eq(transactions.id, held!.transactionId!));
      expect(completed?.status).toBe("completed");
      const [reviewed] = await t.database.db
        .select({ after: auditLog.after })
        .from(auditLog)
        .where(and(eq(auditLog.targetId, opened.id), eq(auditLog.action, "compliance.account_reviewed")));
      expect(reviewed?.after).toMatchObject({ releasedDeposits: [held!.id] });

      // Replays: the approval again (409), and the release itself again, release nothing more.
      const replay = await call("POST", `${CASES}/${opened.id}/decisions/${decisionId}/approve`, checker, {});
      expect(replay.statusCode).toBe(409);
      expect(await t.database.db.transaction((tx) => releaseHeldDeposits(tx, opened.id))).toEqual([]);
      expect(await available(customer)).toBe(1734);
      expect(await t.database.db.select().from(holds).where(eq(holds.referenceId, held!.id))).toMatchObject([
        { status: "released" },
      ]);
      await expectLedgerClean();
    });

    it("keeps a restricted case's deposit held, and releases it once two members lift the restriction", async () => {
      const { maker, checker } = await staff();
      const customer = await createApprovedCustomer(t.database);
      const { address } = await depositInfo(customer);
      await chain.mint(listedSender, 10_000_000n);
      const dirty = await chain.send(ANVIL_KEYS.payer, address as Address, 7_000_000n);
      await chain.mine(3);
      expect(await pass()).toMatchObject({ held: 1 });
      const opened = await caseOf(maker, customer);

      await decide(opened.id, "restrict", maker, checker);
      expect(await depositRows(dirty)).toMatchObject([{ status: "held" }]);
      expect(await available(customer)).toBe(0);
      expect(await caseOf(maker, customer, "restricted")).toMatchObject({ heldDeposits: 1 });

      // Another deposit from the listed sender opens a new case: the restricted one is decided.
      const again = await chain.send(ANVIL_KEYS.payer, address as Address, 1_000_000n);
      await chain.mine(3);
      expect(await pass()).toMatchObject({ held: 1 });
      const second = await caseOf(maker, customer);
      expect(second.id).not.toBe(opened.id);
      expect(await depositRows(again)).toMatchObject([{ status: "held", caseId: second.id }]);

      // Lifting the restriction releases only what that case held.
      await decide(opened.id, "lift", maker, checker);
      expect(await depositRows(dirty)).toMatchObject([{ status: "credited" }]);
      expect(await depositRows(again)).toMatchObject([{ status: "held" }]);
      expect(await available(customer)).toBe(700);
      expect(await balanceOf(customer)).toBe(800);
      await expectLedgerClean();
    });

    it.each([
      ["freeze", "frozen"],
      ["file", "filed"],
    ])(
      "keeps a deposit held when two members decide %s, through later passes and a second deposit",
      async (decision, status) => {
        const { maker, checker } = await staff();
        const customer = await createApprovedCustomer(t.database);
        const { address } = await depositInfo(customer);
        await chain.mint(listedSender, 10_000_000n);
        const dirty = await chain.send(ANVIL_KEYS.payer, address as Address, 3_000_000n);
        await chain.mine(3);
        expect(await pass()).toMatchObject({ held: 1 });
        const opened = await caseOf(maker, customer);
        const [before] = await depositRows(dirty);

        await decide(opened.id, decision, maker, checker);
        expect(await caseOf(maker, customer, status)).toMatchObject({ id: opened.id, heldDeposits: 1 });
        const [after] = await depositRows(dirty);
        expect(after).toMatchObject({ status: "held", caseId: opened.id, holdId: before!.holdId });
        const [hold] = await t.database.db.select().from(holds).where(eq(holds.id, after!.holdId!));
        expect(hold).toMatchObject({ status: "open", amount: 300, closedAt: null });
        const [credit] = await t.database.db
          .select()
          .from(transactions)
          .where(eq(transactions.id, after!.transactionId!));
        expect(credit?.status).toBe("pending");
        expect(await available(customer)).toBe(0);
        expect(await balanceOf(customer)).toBe(300);

        // Another pass changes nothing; another deposit from the sender is held on a new open case.
        expect(await pass()).toMatchObject({ seen: 0, credited: 0, held: 0 });
        const again = await chain.send(ANVIL_KEYS.payer, address as Address, 1_000_000n);
        await chain.mine(3);
        expect(await pass()).toMatchObject({ held: 1 });
        const second = await caseOf(maker, customer);
        expect(second.id).not.toBe(opened.id);
        expect(await depositRows(again)).toMatchObject([{ status: "held", caseId: second.id }]);
        expect(await depositRows(dirty)).toMatchObject([{ status: "held", caseId: opened.id }]);
        expect(await available(customer)).toBe(0);
        expect(await balanceOf(customer)).toBe(400);

        // A decided case takes no other decision: nothing releases the held money but a new decision on it.
        const refused = await call("POST", `${CASES}/${opened.id}/decisions`, maker, {
          decision: "clear",
          note: "Trying to clear a decided case",
        });
        expect(refused.statusCode, refused.body).toBe(409);
        expect(await depositRows(dirty)).toMatchObject([{ status: "held" }]);

        await chain.mine(3);
        const report = await runReconciliation(t.database.db, config(), { trigger: "staff" });
        const found = await t.database.query<{ kind: string; tx_hash: string | null }>(
          "select kind, tx_hash from reconciliation_items where report_id = $1 and outcome = 'difference'",
          [report!.reportId],
        );
        expect(
          found.filter(
            (i) =>
              i.tx_hash === dirty.toLowerCase() ||
              i.tx_hash === again.toLowerCase() ||
              i.kind === "deposit_account_mismatch",
          ),
        ).toEqual([]);
        await expectLedgerClean();
      },
    );

    it("releases the hold and takes back the entry of a held deposit a reorg deeper than the confirmations removed", async () => {
      const customer = await createApprovedCustomer(t.database);
      const { address } = await depositInfo(customer);
      await chain.mint(listedSender, 10_000_000n);
      const dirty = await chain.send(ANVIL_KEYS.payer, address as Address, 4_000_000n);
      await chain.mine(2);
      expect(await pass()).toMatchObject({ held: 1 });
      const [held] = await depositRows(dirty);
      expect(await balanceOf(customer)).toBe(400);

      await chain.reorg(3);
      expect(await pass()).toMatchObject({ reversed: 1, held: 0 });
      const [reversed] = await depositRows(dirty);
      expect(reversed).toMatchObject({ status: "reversed", holdId: held!.holdId });
      const [hold] = await t.database.db.select().from(holds).where(eq(holds.id, held!.holdId!));
      expect(hold).toMatchObject({ status: "released" });
      const [credit] = await t.database.db
        .select()
        .from(transactions)
        .where(eq(transactions.id, held!.transactionId!));
      expect(credit?.status).toBe("cancelled");
      expect(await balanceOf(customer)).toBe(0);
      expect(await available(customer)).toBe(0);
      const { maker } = await staff();
      expect((await caseOf(maker, customer))?.heldDeposits).toBe(0);
      // Another pass, the case's own decisions later: nothing moves again.
      expect(await pass()).toMatchObject({ reversed: 0, credited: 0, held: 0 });
      await expectLedgerClean();
    });

    it("never strands a deposit on a case decided while the watcher was filing it: it waits for the next pass and a new case", async () => {
      const customer = await createApprovedCustomer(t.database);
      const { address } = await depositInfo(customer);
      await chain.mint(listedSender, 10_000_000n);
      await chain.send(ANVIL_KEYS.payer, address as Address, 1_000_000n);
      await chain.mine(3);
      expect(await pass()).toMatchObject({ held: 1 });
      const { maker } = await staff();
      const first = await caseOf(maker, customer);

      // A second deposit arrives while a decision holds the case's row; the decision (restrict) commits.
      const late = await chain.send(ANVIL_KEYS.payer, address as Address, 2_000_000n);
      await chain.mine(3);
      const blocker = new pg.Client({ connectionString: t.database.url });
      await blocker.connect();
      await blocker.query("begin");
      await blocker.query("select 1 from compliance_cases where id = $1 for update", [first.id]);
      const running = pass();
      await waitFor(
        "the watcher to wait on the case",
        async () => {
          await blocker.query("select pg_stat_clear_snapshot()");
          const { rows } = await blocker.query(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
          );
          return rows[0].n > 0;
        },
        { timeoutMs: 30_000 },
      );
      await blocker.query(
        "update compliance_cases set status = 'restricted', decided_at = now() where id = $1",
        [first.id],
      );
      await blocker.query("commit");
      await blocker.end();
      expect(await running).toMatchObject({ held: 0, failed: 1 });
      expect(await depositRows(late)).toMatchObject([{ status: "pending" }]);

      // The next pass files it on a new open case and holds it there.
      expect(await pass()).toMatchObject({ held: 1, failed: 0 });
      const second = await caseOf(maker, customer);
      expect(second.id).not.toBe(first.id);
      expect(await depositRows(late)).toMatchObject([
        { status: "held", caseId: second.id, amountCents: 200 },
      ]);
      expect(
        await t.database.db.select().from(complianceHits).where(eq(complianceHits.caseId, first.id)),
      ).toHaveLength(1);
      expect(await available(customer)).toBe(0);
      expect(await balanceOf(customer)).toBe(300);
      await expectLedgerClean();
    });
  });
});
