import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import type { Transaction, TransactionPage } from "@/contract/transactions";
import { payouts, transferRequests } from "@/server/db/schema";
import { chainClient } from "@/server/features/settlement/chain-config";
import { watchDepositsOnce } from "@/server/features/settlement/deposit-watcher";
import { runPayoutPass } from "@/server/features/settlement/payout-worker";
import { monthOf } from "@/server/features/statements/statement-month";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// The customer's history and monthly statement name the on-chain transaction of each USDC payout and deposit
// (decision 038), on a real anvil: the hash, and the explorer link when CHAIN_EXPLORER_URL is set.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const EXPLORER = "https://explorer.example";
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-chain-statements-"));

function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(outDir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe.skipIf(!process.env.DATABASE_URL)("Transaction hashes in history and statements on anvil", () => {
  const chain = setUpTestChain();
  // No poll memory: the test asks whether the list's own ETag moves when a hash appears. A payout's broadcast
  // writes no pushed notice, so a remembered answer could still vouch for the old copy for up to POLL_MEMORY_MS
  // (it did once in CI, when the approval's notice cleared the memory before the first read rather than after).
  const t = setUpTestApp(() => ({ ...chainEnv(chain), CHAIN_EXPLORER_URL: EXPLORER, POLL_MEMORY_MS: "0" }));
  const config = () => t.app.deps.config.chain!;
  let admin: SignedInUser;

  beforeAll(async () => {
    admin = await createAdminUser(t.database);
    await chain.mint(privateKeyToAccount(ANVIL_KEYS.hotWallet).address, 1_000_000_000n);
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
  const pass = () =>
    runPayoutPass(t.database.db, config(), { sanctionsThreshold: t.app.deps.config.sanctionsNameThreshold });

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
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const before = await get(customer, "/api/transactions/recent");
    const debitOf = (items: Transaction[]) => items.find((x) => x.transferRequestId === id)!;
    expect(debitOf(before.json()).chainTxHash).toBeNull();
    await pass();
    const [sent] = await t.database.db.select().from(payouts).where(eq(payouts.transferRequestId, id));
    expect(sent!.status).toBe("sent");
    // The hash appearing moves the list's ETag: a conditional poll gets the new copy, not a 304.
    const polled = await t.app.inject({
      method: "GET",
      url: "/api/transactions/recent",
      headers: { cookie: customer.cookie, "if-none-match": before.headers.etag as string },
    });
    expect(polled.statusCode).toBe(200);
    expect(debitOf(polled.json())).toMatchObject({ status: "processing", chainTxHash: sent!.minedHash });

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
    expect(debitOf(items)).toMatchObject({
      status: "completed",
      chainTxHash: payoutHash,
      chainTxUrl: `${EXPLORER}/tx/${payoutHash}`,
    });
    const deposit = items.find((x) => x.description === "USDC deposit")!;
    expect(deposit).toMatchObject({
      amountCents: 1234,
      chainTxHash: depositHash,
      chainTxUrl: `${EXPLORER}/tx/${depositHash}`,
    });
    // Money that never touched a chain (the staff credit that funded the account) has no hash.
    const others = items.filter((x) => x !== deposit && x.transferRequestId !== id);
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) expect(other).toMatchObject({ chainTxHash: null, chainTxUrl: null });

    const text = pdfText((await get(customer, `/api/statements/${month}.pdf`)).rawPayload, "completed");
    expect(text).toContain(`Transaction hash ${payoutHash}`);
    expect(text).toContain(`Transaction hash ${depositHash}`);
    // Each hash once: beside its own movement only.
    expect(text.split(payoutHash).length - 1).toBe(1);
  });
});
