import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { type Address, getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { CHROMIUM_ARGS, openPage, type TrackedPage } from "@/tests/e2e/support/browser";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createApprovedCustomer, expectLedgerClean } from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, type SignedInUser } from "@/tests/support/users";

// The treasury in the browser (decision 060): the built server in chain settlement with a deposit factory, its
// loops running. A deposit to a customer's CREATE2 address is credited and swept by the server's own treasury
// loop; the Settlement tab's Treasury card lists the sweep with its hash and depth, at 1280 and 375 px, axe clean.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const root = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const built = fs.existsSync(path.join(root, "dist/web/index.html"));
const hasChromium = fs.existsSync(CHROMIUM);
const CONFIRMATIONS = 3;
const EXPLORER = "https://explorer.example";
const SHOTS = process.env.E2E_SHOTS_DIR ?? "/tmp/shots-treasury";
const SHARED_SECRETS = {
  SESSION_SECRET: "chain-treasury-journey-session-secret-0123456789",
  DATA_KEY: "b".repeat(64),
};
const TREASURY_ENV = { SWEEP_MIN_USDC: "1.00", SWEEP_MIN_AGE: "0" };

describe.skipIf(!process.env.DATABASE_URL || !built || !hasChromium)("the treasury in the browser", () => {
  const chain = setUpTestChain();
  const t = setUpTestApp(() => ({
    ...chainEnv(chain, CONFIRMATIONS, true),
    ...TREASURY_ENV,
    ...SHARED_SECRETS,
  }));
  const config = () => t.app.deps.config.chain!;
  let server: ServerProcess;
  let browser: Browser;
  let admin: SignedInUser & { secret: string };

  beforeAll(async () => {
    const databaseUrl = (t.database as { url?: string }).url!;
    await chain.mint(privateKeyToAccount(ANVIL_KEYS.payer).address, 100_000_000n);
    const owner = await createAdminUser(t.database, { firstName: "Tess", lastName: "Treasurer" });
    admin = { ...owner, secret: (await enrolTotp(t.app, owner.cookie)).secret };
    [server, browser] = await Promise.all([
      startServer({
        ...chainEnv(chain, CONFIRMATIONS, true),
        ...TREASURY_ENV,
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

  async function signIn({ page }: TrackedPage, who: SignedInUser, secret: string) {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Password", { exact: true }).fill(who.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
    await page.getByLabel("Authentication code").fill(await freshTotpCode(t.database, who.user.id, secret));
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
  }

  it("sweeps a credited deposit by the server's own loop and shows it in the Settlement tab", {
    timeout: 240_000,
  }, async () => {
    const customer = await createApprovedCustomer(t.database, { firstName: "Dora", lastName: "Deposit" });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/deposits",
      headers: { cookie: customer.cookie },
    });
    const address = getAddress((res.json() as Extract<DepositInfo, { mode: "chain" }>).address) as Address;
    await chain.send(ANVIL_KEYS.payer, address, 40_000_000n);
    await chain.mine(CONFIRMATIONS);

    // The server's watcher credits it, and its treasury loop sweeps it: mined at depth 1, then the blocks on top.
    await expect
      .poll(
        async () =>
          (
            await t.database.query("select status from treasury_movements where from_address = $1", [
              address.toLowerCase(),
            ])
          ).map((r) => (r as { status: string }).status),
        { timeout: 60_000, interval: 500 },
      )
      .toEqual(["sent"]);
    await chain.mine(CONFIRMATIONS);
    await expect
      .poll(
        async () =>
          (
            await t.database.query("select status from treasury_movements where from_address = $1", [
              address.toLowerCase(),
            ])
          ).map((r) => (r as { status: string }).status),
        { timeout: 60_000, interval: 500 },
      )
      .toEqual(["completed"]);

    const staff = await openPage(browser, 1280, server.url);
    await signIn(staff, admin, admin.secret);
    await staff.page.goto("/admin");
    await staff.page.getByRole("tab", { name: "Settlement" }).click();
    await staff.page.getByRole("heading", { name: "Treasury" }).waitFor();
    const sweep = staff.page.getByRole("list", { name: "Treasury movements" }).getByRole("listitem").first();
    await sweep.getByText("completed").waitFor({ timeout: 30_000 });
    const text = await sweep.innerText();
    expect(text).toContain("$40.00");
    expect(text).toContain("sweep");
    expect(text).toContain(`${CONFIRMATIONS} / ${CONFIRMATIONS}`);
    expect(await sweep.locator(`a[href^="${EXPLORER}/tx/0x"]`).count()).toBe(1);
    await expectAccessible(staff.page, "the Settlement tab with the Treasury card");
    fs.mkdirSync(SHOTS, { recursive: true });
    const card = staff.page.getByRole("heading", { name: "Treasury" });
    await card.scrollIntoViewIfNeeded();
    await staff.page.screenshot({ path: `${SHOTS}/treasury-1280.png`, fullPage: true });
    await staff.page.setViewportSize({ width: 375, height: 812 });
    await card.scrollIntoViewIfNeeded();
    await staff.page.screenshot({ path: `${SHOTS}/treasury-375.png`, fullPage: true });
    expect(staff.errors).toEqual([]);
    await staff.context.close();

    await server.stop();
    await expectLedgerClean(t.database);
    await expectReconciled(chain, t.database, config());
  });
});
