import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { type Browser, chromium } from "playwright-core";
import { createTestClient, createWalletClient, http, parseGwei } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SettlementOverview } from "@/contract/settlement";
import { transferRequests } from "@/server/db/schema";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { CHROMIUM_ARGS, openPage, type TrackedPage } from "@/tests/e2e/support/browser";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// The Settlement tab's payout alerts in Chromium (decision 058): the built app as a server process whose payout
// worker runs, CHAIN_MAX_FEE_GWEI set. The hot key is used outside Pillar and the base fee jumps past the
// ceiling: the tab shows both alerts (axe-clean), and the paused payout goes once the fee falls.
const required = process.env.CHAIN === "required";
const root = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const built = fs.existsSync(path.join(root, "dist/web/index.html"));
const hasChromium = fs.existsSync(CHROMIUM);
if (required && (!process.env.DATABASE_URL || !built || !hasChromium)) {
  throw new Error(
    "CHAIN=required but the payout alerts' browser test cannot run (DATABASE_URL, build, Chromium)",
  );
}
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet);
const SHARED_SECRETS = {
  SESSION_SECRET: "chain-payout-alerts-session-secret-0123456789",
  DATA_KEY: "b".repeat(64),
};

describe.skipIf(!process.env.DATABASE_URL || !built || !hasChromium)("payout alerts in the browser", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({ ...chainEnv(chain), ...SHARED_SECRETS }));
  let server: ServerProcess;
  let browser: Browser;
  let owner: SignedInUser & { secret: string };
  // Funding and approving are other tests' subjects: a second owner without a factor does them over the API.
  let admin: SignedInUser;
  const anvil = () =>
    createTestClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      mode: "anvil",
    });

  beforeAll(async () => {
    await chain.mint(hot.address, 1_000_000_000n);
    const member = await createAdminUser(t.database, { firstName: "Olive", lastName: "Owner" });
    owner = { ...member, secret: (await enrolTotp(t.app, member.cookie)).secret };
    admin = await createAdminUser(t.database);
    [server, browser] = await Promise.all([
      startServer({
        ...chainEnv(chain),
        ...SHARED_SECRETS,
        DATABASE_URL: (t.database as { url?: string }).url!,
        CHAIN_MAX_FEE_GWEI: "50",
        RATE_LIMIT_SCALE: "20",
      }),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function approvedTransfer() {
    const customer = await createFundedCustomer(t, admin, "200.00");
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const res = await requestTransfer(t.app, customer, { amount: "20.00", cryptoAddress: to });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().transferRequest.id as string;
    const approved = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "approved" },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    return id;
  }
  const statusOf = async (id: string) =>
    (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!.status;
  /** Mines a block at a time until the server's worker completes the transfer. */
  async function completed(id: string) {
    await expect
      .poll(
        async () => {
          await chain.mine(1);
          return statusOf(id);
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe("completed");
  }
  const alertKinds = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/settlement",
      headers: { cookie: admin.cookie },
    });
    return (res.json() as Extract<SettlementOverview, { mode: "chain" }>).alerts.map((a) => a.kind).sort();
  };

  async function signIn({ page }: TrackedPage) {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
    await page
      .getByLabel("Authentication code")
      .fill(await freshTotpCode(t.database, owner.user.id, owner.secret));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
  }

  it("shows a nonce used outside Pillar and payouts paused by the fee ceiling, then sends them when the fee falls", {
    timeout: 240_000,
  }, async () => {
    // One payout goes as usual: Pillar has handed out its first nonce.
    await completed(await approvedTransfer());
    // The hot key sends a transaction of its own, then the base fee jumps past the 50 gwei ceiling.
    const outside = await createWalletClient({
      chain: { ...foundry, id: chain.node.chainId },
      transport: http(chain.node.url),
      account: hot,
    }).sendTransaction({ to: hot.address, value: 0n });
    await chain.publicClient.waitForTransactionReceipt({ hash: outside, pollingInterval: 50 });
    await anvil().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("120") });
    await chain.mine(1);
    const paused = await approvedTransfer();
    await expect
      .poll(alertKinds, { timeout: 30_000, interval: 500 })
      .toEqual(["fee_ceiling", "nonce_used_outside"]);

    const staff = await openPage(browser, 1280, server.url);
    await signIn(staff);
    await staff.page.goto("/admin");
    await staff.page.getByRole("tab", { name: "Settlement" }).click();
    const alerts = staff.page.getByRole("region", { name: "Settlement alerts" });
    await alerts.getByText(/paused: the chain asks .* above the 50 gwei ceiling/).waitFor();
    await alerts.getByText(/was used by a transaction Pillar did not sign/).waitFor();
    await staff.page.getByText("Paused: the fee is above the ceiling").waitFor();
    await staff.page.getByRole("heading", { name: "Fees and waiting" }).waitFor();
    await expectAccessible(staff.page, "the Settlement tab with payout alerts");
    if (process.env.E2E_SHOTS) {
      fs.mkdirSync("/tmp/shots-e2e", { recursive: true });
      await staff.page.screenshot({ path: "/tmp/shots-e2e/settlement-alerts.png", fullPage: true });
      await staff.page.setViewportSize({ width: 375, height: 812 });
      await staff.page.screenshot({ path: "/tmp/shots-e2e/settlement-alerts-375.png", fullPage: true });
    }
    expect(staff.errors).toEqual([]);
    await staff.context.close();

    // Empty blocks lower the base fee 12.5% each: below the ceiling the worker sends the payout by itself.
    await chain.mine(12);
    await completed(paused);
    await expect.poll(alertKinds, { timeout: 30_000, interval: 500 }).not.toContain("fee_ceiling");

    await server.stop();
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, t.app.deps.config.chain!);
  });
});
