import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { type Address, createTestClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import type { Transaction, TransactionPage } from "@/contract/transactions";
import { payoutAttempts, payouts, transferRequests } from "@/server/db/schema";
import { chainClient } from "@/server/features/settlement/chain-config";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runPayoutPass } from "@/server/features/settlement/payout-worker";
import { monthOf } from "@/server/features/statements/statement-month";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { type EventStreamClient, openEventStream, topicsOf } from "@/tests/support/event-stream";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// The customer's history and monthly statement name the on-chain transaction of each USDC payout and deposit
// (decision 038), on a real anvil: the hash, and the explorer link when CHAIN_EXPLORER_URL is set.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const EXPLORER = "https://explorer.example";
const debitOf = (items: Transaction[], transferId: string) =>
  items.find((x) => x.transferRequestId === transferId)!;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-chain-statements-"));

function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(outDir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe.skipIf(!process.env.DATABASE_URL)("Transaction hashes in history and statements on anvil", () => {
  const chain = setUpTestChain();
  // The poll memory is on, as in production: a payout's broadcast pushes a notice, and hearing it clears the
  // customer's remembered answers, so a poll after the notice cannot be answered 304 from the old copy.
  const t = setUpTestApp(() => ({ ...chainEnv(chain), CHAIN_EXPLORER_URL: EXPLORER }));
  const config = () => t.app.deps.config.chain!;
  let admin: SignedInUser;
  let baseUrl: string;
  const streams: EventStreamClient[] = [];
  const anvil = () =>
    createTestClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      mode: "anvil",
    });

  beforeAll(async () => {
    admin = await createAdminUser(t.database);
    await chain.mint(privateKeyToAccount(ANVIL_KEYS.hotWallet).address, 1_000_000_000n);
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await anvil().setAutomine(true);
  });
  afterEach(async () => {
    await expectLedgerClean(t.database);
    // In chain mode every money test also ends with the chain agreeing with the ledger.
    await expectReconciled(chain, t.database, config());
  });

  const get = (who: SignedInUser, url: string) =>
    t.app.inject({ method: "GET", url, headers: { cookie: who.cookie } });
  const history = async (who: SignedInUser) =>
    ((await get(who, "/api/transactions?limit=50")).json() as TransactionPage).items;
  const pass = (now?: () => number) =>
    runPayoutPass(t.database.db, config(), {
      sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold,
      now,
    });
  /** The customer's open dashboard: a stream opened now, which sends only notices committed after it. */
  const openDashboard = async (who: SignedInUser) => {
    const s = await openEventStream(baseUrl, { cookie: who.cookie });
    streams.push(s);
    const ready = await s.next((e) => e.event === "ready");
    let seen = Number(ready.id);
    /** The next notice naming the history: once it is here, this instance has forgotten the old answers. */
    const nextHistoryNotice = async () => {
      const e = await s.next((x) => Number(x.id) > seen && topicsOf(x).includes("transactions"), 10_000);
      seen = Number(e.id);
      return e;
    };
    return { nextHistoryNotice };
  };
  const approve = async (id: string) => {
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
  };
  /** A conditional poll of the recent list with the ETag of `before`, as the dashboard's poll asks it. */
  const pollRecent = (who: SignedInUser, etag: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/transactions/recent",
      headers: { cookie: who.cookie, "if-none-match": etag },
    });

  it("shows the hash of a payout and a deposit in the history, linked, and lists both in the statement", async () => {
    const customer = await createFundedCustomer(t, admin, "300.00");

    // A deposit to the customer's own address, credited after the confirmations.
    const info = (await get(customer, "/api/deposits")).json() as Extract<DepositInfo, { mode: "chain" }>;
    await watchDepositsOnce(t.database.db, config(), chainClient(config()));
    const depositHash = (await chain.mint(info.address as Address, 12_340_000n)).toLowerCase();
    for (let i = 0; i < 4; i += 1) {
      await chain.mine(1);
      await watchDepositsOnce(t.database.db, config(), chainClient(config()));
    }

    // A payout: approved, sent, and shown with its hash while it is still processing.
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "40.00", cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    await approve(id);
    const dashboard = await openDashboard(customer);
    const before = await get(customer, "/api/transactions/recent");
    expect(debitOf(before.json(), id).chainTxHash).toBeNull();
    await pass();
    const [sent] = await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id));
    expect(sent!.status).toBe("sent");
    // The hash appearing is pushed, and moves the list's ETag: a conditional poll after the notice gets the
    // new copy, not a remembered 304.
    await dashboard.nextHistoryNotice();
    const polled = await pollRecent(customer, before.headers.etag as string);
    expect(polled.statusCode).toBe(200);
    expect(debitOf(polled.json(), id)).toMatchObject({ status: "processing", chainTxHash: sent!.minedHash });

    // Its confirmations count up on the history block by block, each new depth pushed to the open dashboard
    // and moving the list's ETag, until the block that completes it.
    const required = config().confirmations;
    expect(required).toBeGreaterThan(1);
    let last = polled;
    let depth = debitOf(polled.json(), id).chainConfirmations!;
    expect(debitOf(polled.json(), id).chainConfirmationsRequired).toBe(required);
    expect(depth).toBe(1);
    while (depth < required) {
      await chain.mine(1);
      await pass();
      await dashboard.nextHistoryNotice();
      const next = await pollRecent(customer, last.headers.etag as string);
      expect(next.statusCode).toBe(200);
      expect(debitOf(next.json(), id).chainConfirmations).toBe(depth + 1);
      depth += 1;
      last = next;
    }
    expect(debitOf(last.json(), id)).toMatchObject({ status: "completed", chainConfirmations: required });

    // The pending statement line already carries it.
    const month = monthOf(new Date());
    const pendingText = pdfText((await get(customer, `/api/statements/${month}.pdf`)).rawPayload, "pending");
    expect(pendingText).toContain(`Transaction hash ${sent!.minedHash}`);

    for (let i = 0; i < 6; i += 1) {
      await chain.mine(1);
      await pass();
    }
    const [request] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
    expect(request!.status).toBe("completed");
    const [done] = await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id));
    const payoutHash = done!.minedHash!;

    const items = await history(customer);
    expect(debitOf(items, id)).toMatchObject({
      status: "completed",
      chainTxHash: payoutHash,
      chainTxUrl: `${EXPLORER}/tx/${payoutHash}`,
      chainConfirmations: required,
      chainConfirmationsRequired: required,
    });
    const deposit = items.find((x) => x.description === "USDC deposit")!;
    // A deposit is credited only once deep enough: it shows every confirmation asked.
    expect(deposit).toMatchObject({
      amountCents: 1234,
      chainTxHash: depositHash,
      chainTxUrl: `${EXPLORER}/tx/${depositHash}`,
      chainConfirmations: required,
      chainConfirmationsRequired: required,
    });
    // Money that never touched a chain (the staff credit that funded the account) has no hash.
    const others = items.filter((x) => x !== deposit && x.transferRequestId !== id);
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) {
      expect(other).toMatchObject({ chainTxHash: null, chainTxUrl: null, chainConfirmations: null });
    }

    const text = pdfText((await get(customer, `/api/statements/${month}.pdf`)).rawPayload, "completed");
    expect(text).toContain(`Transaction hash ${payoutHash}`);
    expect(text).toContain(`Transaction hash ${depositHash}`);
    // Each hash once: beside its own movement only.
    expect(text.split(payoutHash).length - 1).toBe(1);
  });
  it("pushes the hash to an open dashboard when a payout is broadcast and again when it is replaced", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "25.00", cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    await approve(id);
    const dashboard = await openDashboard(customer);
    const first = await get(customer, "/api/transactions/recent");
    expect(debitOf(first.json(), id).chainTxHash).toBeNull();

    // The node stops mining: the payout is broadcast and waits in the mempool, so nothing else moves.
    await anvil().setAutomine(false);
    await pass();
    const attempts = () =>
      t.database.db
        .select()
        .from(payoutAttempts)
        .innerJoin(payouts, eq(payouts.id, payoutAttempts.payoutId))
        .where(eq(payouts.transferRequestId, id))
        .orderBy(asc(payoutAttempts.createdAt));
    const [broadcast] = await attempts();
    expect(broadcast!.payouts.status).toBe("sent");
    await dashboard.nextHistoryNotice();
    const afterBroadcast = await pollRecent(customer, first.headers.etag as string);
    expect(afterBroadcast.statusCode).toBe(200);
    expect(debitOf(afterBroadcast.json(), id)).toMatchObject({
      status: "processing",
      chainTxHash: broadcast!.payout_attempts.txHash,
    });
    // The poll memory is on: with nothing further pushed, a repeat poll is answered from it.
    expect((await pollRecent(customer, afterBroadcast.headers.etag as string)).statusCode).toBe(304);

    // Still not mined past PAYOUT_REPLACE_AFTER, and the base fee jumped past its fee (a block too dear for it):
    // a replacement at a higher fee goes out (decision 058), and its hash is pushed.
    await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: 20_000_000_000n });
    await anvil().mine({ blocks: 1 });
    const later = Date.now() + 3_600_000;
    expect((await pass(() => later)).replaced).toBe(1);
    const all = await attempts();
    expect(all).toHaveLength(2);
    const replacement = all[1]!.payout_attempts;
    expect(replacement.firstBroadcastAt).not.toBeNull();
    await dashboard.nextHistoryNotice();
    const afterReplace = await pollRecent(customer, afterBroadcast.headers.etag as string);
    expect(afterReplace.statusCode).toBe(200);
    expect(debitOf(afterReplace.json(), id).chainTxHash).toBe(replacement.txHash);

    // The node mines again: the replacement settles the transfer once.
    await anvil().setAutomine(true);
    await chain.mine(1);
    for (let i = 0; i < 8; i += 1) {
      await pass();
      const [row] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
      if (row!.status === "completed") break;
      await chain.mine(1);
    }
    const [done] = await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id));
    expect(done).toMatchObject({ status: "completed", minedHash: replacement.txHash });
  });
});
