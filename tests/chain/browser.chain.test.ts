import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { CHROMIUM_ARGS, openPage, type TrackedPage, toastWith } from "@/tests/e2e/support/browser";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createApprovedCustomer, expectLedgerClean, fundCustomer } from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// The issue's browser journey on a real anvil (decisions 028, 030, 038): the built app as a real server process
// in chain settlement (its payout worker and deposit watcher running), driven in Chromium. A customer sends $50,
// staff approve it, the receipt shows the payout's hash and completes once the test mines the confirmations; a
// deposit to the address the Add money page shows appears as pending, then credited. It ends with the ledger
// check and the reconciliation check. It runs in the chain stage (npm run test:chain), after CI's build.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const root = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const built = fs.existsSync(path.join(root, "dist/web/index.html"));
const hasChromium = fs.existsSync(CHROMIUM);
if (required && (!built || !hasChromium)) {
  throw new Error(
    `CHAIN=required but the browser journey cannot run: ${built ? "" : "no build in dist/web (npm run build) "}${
      hasChromium ? "" : `no Chromium at ${CHROMIUM}`
    }`.trim(),
  );
}
const CONFIRMATIONS = 3;
const EXPLORER = "https://explorer.example";
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);
// One set of keys for the in-process app and the server process: the authenticator's key the first stores
// encrypted is read by the second.
const SHARED_SECRETS = {
  SESSION_SECRET: "chain-browser-journey-session-secret-0123456789",
  DATA_KEY: "a".repeat(64),
};

describe.skipIf(!process.env.DATABASE_URL || !built || !hasChromium)("USDC in the browser on anvil", () => {
  const chain = setUpTestChain();
  // The in-process app writes the fixtures and runs the closing checks; the server process beside it, on the
  // same database, is the one the browser talks to and the one whose workers settle.
  const t = setUpTestApp(() => ({ ...chainEnv(chain, CONFIRMATIONS), ...SHARED_SECRETS }));
  const config = () => t.app.deps.config.chain!;
  let server: ServerProcess;
  let browser: Browser;
  let admin: SignedInUser & { secret: string };
  let funder: SignedInUser;

  beforeAll(async () => {
    const databaseUrl = (t.database as { url?: string }).url;
    if (!databaseUrl) throw new Error("the browser journey needs the test database's URL (PostgreSQL)");
    await chain.mint(hot.address, 1_000_000_000n); // $1,000 in the hot wallet
    await chain.mint(privateKeyToAccount(ANVIL_KEYS.payer).address, 25_000_000n); // the depositor's 25 USDC
    const owner = await createAdminUser(t.database, { firstName: "Olive", lastName: "Owner" });
    admin = { ...owner, secret: (await enrolTotp(t.app, owner.cookie)).secret };
    // Funding is another test's subject: a second owner without a factor credits the customer over the API.
    funder = await createAdminUser(t.database);
    [server, browser] = await Promise.all([
      startServer({
        ...chainEnv(chain, CONFIRMATIONS),
        ...SHARED_SECRETS,
        DATABASE_URL: databaseUrl,
        CHAIN_EXPLORER_URL: EXPLORER,
        RATE_LIMIT_SCALE: "20",
      }),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Signs in through /auth's form; staff with an authenticator answer "Verify it's you" with a fresh code. */
  async function signIn({ page }: TrackedPage, who: SignedInUser, secret?: string) {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Password", { exact: true }).fill(who.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    if (secret) {
      await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
      await page.getByLabel("Authentication code").fill(await freshTotpCode(t.database, who.user.id, secret));
      await page.getByRole("button", { name: "Verify", exact: true }).click();
    }
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
  }

  /** Screenshots at the desktop width and at 375 px when E2E_SHOTS is set (into /tmp/shots-e2e). */
  async function shots({ page }: TrackedPage, name: string) {
    if (!process.env.E2E_SHOTS) return;
    fs.mkdirSync("/tmp/shots-e2e", { recursive: true });
    await page.screenshot({ path: `/tmp/shots-e2e/${name}.png`, fullPage: true });
    const size = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: `/tmp/shots-e2e/${name}-375.png`, fullPage: true });
    if (size) await page.setViewportSize(size);
  }

  it("sends $50 on chain, completes it after the confirmations, and credits a deposit to the shown address", {
    timeout: 240_000,
  }, async () => {
    const customer = await createApprovedCustomer(t.database, { firstName: "Chiara", lastName: "Chain" });
    await fundCustomer(t, funder, customer.user.id, "200.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;

    // The customer sends $50 (fee $1.00) through the form and its review step, the address typed in small
    // letters: it carries no checksum, so the review step asks for the customer's word before it sends.
    const shopper = await openPage(browser, 1280, server.url);
    await signIn(shopper, customer);
    const { page } = shopper;
    await page.goto("/send-money");
    await page.getByLabel("Amount (USD)").fill("50.00");
    await page.getByLabel("Recipient Name").fill("Ana Ruiz");
    await page.getByLabel("USDC Wallet Address").fill(to.toLowerCase());
    await page.getByLabel("Transfer Purpose").fill("Rent share");
    await page.getByRole("button", { name: /^Send \$50\.00/ }).click();
    const review = page.getByRole("region", { name: "Review your transfer" });
    await review.getByText("This address has no checksum").waitFor();
    const confirm = review.getByRole("button", { name: "Confirm and send" });
    expect(await confirm.isDisabled()).toBe(true);
    await shots(shopper, "chain-review-no-checksum");
    await review.getByRole("checkbox", { name: /I compared every character/ }).click();
    await confirm.click();
    const receiptLink = page.getByRole("link", { name: "View receipt" });
    await receiptLink.waitFor();
    const receiptPath = (await receiptLink.getAttribute("href")) ?? "";
    expect(receiptPath).toMatch(/^\/transfers\/[0-9a-f-]{36}$/);

    // Staff approve it from Outgoing Pays, signed in with their authenticator's code.
    const staff = await openPage(browser, 1280, server.url);
    await signIn(staff, admin, admin.secret);
    await staff.page.goto("/admin");
    await staff.page.getByRole("tab", { name: "Outgoing Pays" }).click();
    await staff.page
      .getByRole("button", { name: "Approve transfer request from Chiara Chain" })
      .first()
      .click();
    await toastWith(staff.page, "Transfer request updated successfully").waitFor();

    // The worker signs and broadcasts it; anvil mines it in one block: one confirmation of three, processing.
    await page.goto(receiptPath);
    const hashLink = page.getByRole("link", { name: /^0x[0-9a-f]{64}/ });
    await hashLink.waitFor({ timeout: 30_000 });
    const hash = (await hashLink.innerText()).match(/0x[0-9a-f]{64}/)![0];
    expect(await hashLink.getAttribute("href")).toBe(`${EXPLORER}/tx/${hash}`);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: hash as `0x${string}` });
    expect(receipt.status).toBe("success");
    await page.getByText(`1 of ${CONFIRMATIONS}`).waitFor({ timeout: 30_000 });
    await page.getByText("Processing").first().waitFor();
    // The network is the configured chain's, not guessed from the address's form.
    await page.getByText("USDC on Local development chain (anvil)").waitFor();
    await shots(shopper, "chain-receipt-confirming");

    // The history row names the same transaction, linked to the explorer, and counts the same blocks: a block
    // mined while the dashboard is open shows there by itself (pushed, no reload).
    await page.goto("/dashboard");
    const row = page.getByRole("listitem").filter({ has: page.locator(`a[href="${EXPLORER}/tx/${hash}"]`) });
    await row.getByText(`1 of ${CONFIRMATIONS} confirmations`).waitFor({ timeout: 15_000 });
    await chain.mine(1);
    await row.getByText(`2 of ${CONFIRMATIONS} confirmations`).waitFor({ timeout: 30_000 });
    await shots(shopper, "chain-history-confirming");

    // The blocks on top: the receipt completes by itself (its own polling, no reload).
    await page.goto(receiptPath);
    await page.getByText(`2 of ${CONFIRMATIONS}`).waitFor({ timeout: 15_000 });
    await chain.mine(CONFIRMATIONS - 2);
    await page.getByText("Completed", { exact: true }).first().waitFor({ timeout: 30_000 });
    await page.getByText(`${CONFIRMATIONS} of ${CONFIRMATIONS}`).waitFor();
    await shots(shopper, "chain-receipt-completed");
    // The confirmed small-letter address was sent to in its EIP-55 form: the recipient holds the net $49.
    const held = await chain.publicClient.readContract({
      address: chain.token,
      abi: pillarUsdAbi,
      functionName: "balanceOf",
      args: [to],
    });
    expect(held).toBe(49_000_000n);
    // On the history too, with every confirmation asked.
    await page.goto("/dashboard");
    await row.getByText(`${CONFIRMATIONS} of ${CONFIRMATIONS} confirmations`).waitFor({ timeout: 15_000 });

    // A deposit: USDC sent on chain to the address the Add money page shows, pending, then credited.
    await page.goto("/add-money");
    const shown = page.locator("code").filter({ hasText: /^0x[0-9a-fA-F]{40}$/ });
    await shown.waitFor();
    const address = (await shown.innerText()).trim() as Address;
    const depositHash = await chain.send(ANVIL_KEYS.payer, address, 25_000_000n); // 25 USDC
    const deposits = page.getByRole("list", { name: "USDC deposits" });
    const deposit = deposits.getByRole("listitem").filter({ hasText: "$25.00" });
    // Seen by the watcher within its 2-second pass: the page hears it pushed (no 30-second idle poll to wait for).
    await deposit.getByText("Pending").waitFor({ timeout: 15_000 });
    expect(await deposit.locator(`a[href="${EXPLORER}/tx/${depositHash.toLowerCase()}"]`).count()).toBe(1);
    await shots(shopper, "chain-add-money-pending");
    await chain.mine(CONFIRMATIONS);
    await deposit.getByText("Credited").waitFor({ timeout: 30_000 });
    // $200 − $50 + $25: the dashboard's balance catches up within its poll.
    await expect
      .poll(async () => (await shopper.context.request.get("/api/account/summary")).json(), {
        timeout: 15_000,
      })
      .toMatchObject({ totalBalance: "$175.00", availableBalance: "$175.00" });

    // The same money from the back office: the Settlement tab lists the payout and the deposit with their hashes
    // and depth, and a reconciliation run from it comes back clean with its CSV.
    await staff.page.goto("/admin");
    await staff.page.getByRole("tab", { name: "Settlement" }).click();
    await staff.page.getByRole("heading", { name: "Hot wallet" }).waitFor();
    const payoutRow = staff.page
      .getByRole("list", { name: "Payouts" })
      .getByRole("listitem")
      .filter({ has: staff.page.locator(`a[href="${EXPLORER}/tx/${hash}"]`) });
    await payoutRow.getByText("completed").waitFor();
    expect(await payoutRow.innerText()).toContain(`${CONFIRMATIONS} / ${CONFIRMATIONS}`);
    const depositRow = staff.page
      .getByRole("list", { name: "Deposits" })
      .getByRole("listitem")
      .filter({ has: staff.page.locator(`a[href="${EXPLORER}/tx/${depositHash.toLowerCase()}"]`) });
    await depositRow.getByText("credited").waitFor();
    expect(await depositRow.innerText()).toContain("+$25.00");
    await staff.page.getByRole("button", { name: "Run now" }).click();
    const report = staff.page
      .getByRole("list", { name: "Reconciliation reports, newest first" })
      .getByRole("listitem")
      .filter({ hasText: "run by" })
      .first();
    await report.getByText("clean", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await report.innerText()).toMatch(/\b0 differences\b/);
    const csvPath = await report.getByRole("link", { name: /^CSV/ }).getAttribute("href");
    const csv = await staff.context.request.get(csvPath!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    await expectAccessible(staff.page, "the Settlement tab");
    await shots(staff, "chain-settlement-tab");

    for (const tracked of [shopper, staff]) {
      expect(tracked.errors).toEqual([]);
      await tracked.context.close();
    }

    // The ledger balances, and the chain agrees with it: hot wallet, the payout and the deposit.
    await server.stop();
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, config());
  });
});
