import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { type Address, getAddress, parseAbiItem } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DepositInfo } from "@/contract/settlement";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { CHROMIUM_ARGS, openPage, type TrackedPage, toastWith } from "@/tests/e2e/support/browser";
import { ANVIL_KEYS, chainEnv, expectReconciled, setUpTestChain } from "@/tests/support/anvil";
import { createApprovedCustomer, expectLedgerClean } from "@/tests/support/money";
import { enrolTotp, freshTotpCode } from "@/tests/support/second-factor";
import { type ServerProcess, startServer } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// A return to sender end to end in the browser (decision 060): the built server in chain settlement, its loops
// running. A sub-cent deposit lands; one finance member proposes "Return to sender…" on the Settlement tab's
// deposits list, a second approves it on the Approvals tab, the server's treasury loop sends it back on chain and
// the tab shows it returned. At 1280 and 375 px, axe clean; the ledger check and a clean reconciliation after.
const required = process.env.CHAIN === "required";
if (required && !process.env.DATABASE_URL) throw new Error("CHAIN=required but DATABASE_URL is unset");
const root = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const built = fs.existsSync(path.join(root, "dist/web/index.html"));
const hasChromium = fs.existsSync(CHROMIUM);
const CONFIRMATIONS = 3;
const SHOTS = process.env.E2E_SHOTS_DIR ?? "/tmp/shots-treasury";
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const hot = privateKeyToAccount(ANVIL_KEYS.hotWallet).address;
const payer = privateKeyToAccount(ANVIL_KEYS.payer).address;
const SHARED_SECRETS = {
  SESSION_SECRET: "chain-return-journey-session-secret-0123456789ab",
  DATA_KEY: "c".repeat(64),
};
const TREASURY_ENV = { SWEEP_MIN_USDC: "1.00", SWEEP_MIN_AGE: "0" };
type Staff = SignedInUser & { secret: string };

describe.skipIf(!process.env.DATABASE_URL || !built || !hasChromium)(
  "a return to sender in the browser",
  () => {
    const chain = setUpTestChain();
    const t = setUpTestApp(() => ({
      ...chainEnv(chain, CONFIRMATIONS, true),
      ...TREASURY_ENV,
      ...SHARED_SECRETS,
    }));
    const config = () => t.app.deps.config.chain!;
    let server: ServerProcess;
    let browser: Browser;
    let maker: Staff;
    let checker: Staff;
    const financeMember = async (firstName: string): Promise<Staff> => {
      const member = await createVerifiedUser(t.database, { firstName, staffRoles: ["finance"] });
      return { ...member, secret: (await enrolTotp(t.app, member.cookie)).secret };
    };

    beforeAll(async () => {
      const databaseUrl = (t.database as { url?: string }).url!;
      await chain.mint(payer, 100_000_000n);
      // An uncredited deposit is never swept: the hot wallet pays the return from its own USDC.
      await chain.mint(hot, 1_000_000n);
      maker = await financeMember("Mara");
      checker = await financeMember("Chet");
      [server, browser] = await Promise.all([
        startServer({
          ...chainEnv(chain, CONFIRMATIONS, true),
          ...TREASURY_ENV,
          ...SHARED_SECRETS,
          DATABASE_URL: databaseUrl,
          RATE_LIMIT_SCALE: "20",
        }),
        chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    async function signIn({ page }: TrackedPage, who: Staff) {
      await page.goto("/auth");
      await page.getByLabel("Email").fill(who.email);
      await page.getByLabel("Password", { exact: true }).fill(who.password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
      await page
        .getByLabel("Authentication code")
        .fill(await freshTotpCode(t.database, who.user.id, who.secret));
      await page.getByRole("button", { name: "Verify", exact: true }).click();
      await page
        .getByRole("link", { name: /settings/i })
        .first()
        .waitFor();
    }

    /** Moving money asks for a fresh second factor: answer it when the dialog comes, then wait for `done`. */
    async function withStepUp(page: Page, who: Staff, done: Locator) {
      const ask = page.getByRole("dialog", { name: "Verify it's you" });
      await Promise.race([ask.waitFor(), done.waitFor()]);
      if (await ask.isVisible()) {
        await ask
          .getByLabel("Authentication code")
          .fill(await freshTotpCode(t.database, who.user.id, who.secret));
        await ask.getByRole("button", { name: "Verify", exact: true }).click();
      }
      await done.waitFor({ timeout: 30_000 });
    }

    async function openSettlement(who: Staff, width: number) {
      const tracked = await openPage(browser, width, server.url);
      await signIn(tracked, who);
      await tracked.page.goto("/admin");
      await tracked.page.getByRole("tab", { name: "Settlement" }).click();
      await tracked.page.getByRole("list", { name: "Deposits" }).waitFor();
      return tracked;
    }

    it("one member proposes in the Settlement tab, another approves, the dust goes back once", {
      timeout: 300_000,
    }, async () => {
      const customer = await createApprovedCustomer(t.database, { firstName: "Rhea", lastName: "Return" });
      const res = await t.app.inject({
        method: "GET",
        url: "/api/deposits",
        headers: { cookie: customer.cookie },
      });
      const address = getAddress((res.json() as Extract<DepositInfo, { mode: "chain" }>).address) as Address;
      await chain.send(ANVIL_KEYS.payer, address, 4_321n);
      await chain.mine(CONFIRMATIONS);
      await expect
        .poll(
          async () =>
            (
              await t.database.query("select status from chain_deposits where to_address = $1", [
                address.toLowerCase(),
              ])
            ).map((r) => (r as { status: string }).status),
          { timeout: 60_000, interval: 500 },
        )
        .toEqual(["below_cent"]);

      const staff = await openSettlement(maker, 1280);
      const row = staff.page
        .getByRole("list", { name: "Deposits" })
        .getByRole("listitem")
        .filter({ hasText: "below one cent" });
      const open = row.getByRole("button", { name: "Return the $0.00 deposit to its sender…" });
      await open.focus();
      await staff.page.keyboard.press("Enter");
      const form = row.getByRole("form", { name: "Return the $0.00 deposit to its sender" });
      // The reason field has the focus: typed straight in, from the keyboard.
      await expect
        .poll(() => form.getByLabel("Reason").evaluate((el) => el === document.activeElement))
        .toBe(true);
      await staff.page.keyboard.press("Escape");
      await open.waitFor();
      await expect.poll(() => open.evaluate((el) => el === document.activeElement)).toBe(true);
      await staff.page.keyboard.press("Enter");
      await staff.page.keyboard.type("Below one cent: back to the sender");
      await expectAccessible(staff.page, "the Settlement tab with the return form open");
      await form.getByRole("button", { name: "Send for approval" }).click();
      const proposed = row
        .getByRole("status")
        .filter({ hasText: "Return proposed — waiting for a second member" });
      await withStepUp(staff.page, maker, proposed);
      expect(await row.getByRole("button", { name: /Return the/ }).count()).toBe(0);
      await expectAccessible(staff.page, "the Settlement tab with a return proposed");
      fs.mkdirSync(SHOTS, { recursive: true });
      await row.scrollIntoViewIfNeeded();
      await staff.page.screenshot({ path: `${SHOTS}/return-proposed-1280.png`, fullPage: true });
      await staff.page.setViewportSize({ width: 375, height: 812 });
      await row.scrollIntoViewIfNeeded();
      await staff.page.screenshot({ path: `${SHOTS}/return-proposed-375.png`, fullPage: true });
      await staff.page.setViewportSize({ width: 1280, height: 900 });

      // The maker cannot approve their own: a different member does, on the Approvals tab.
      const second = await openPage(browser, 1280, server.url);
      await signIn(second, checker);
      await second.page.goto("/admin");
      await second.page.getByRole("tab", { name: "Approvals" }).click();
      const request = second.page.getByRole("listitem", {
        name: "Return a deposit to its sender for Rhea Return",
      });
      await request.getByRole("button", { name: /^Approve/ }).click();
      await withStepUp(second.page, checker, toastWith(second.page, "Approved"));
      expect(second.errors).toEqual([]);
      await second.context.close();

      // The server's treasury loop signs and sends it; the blocks on top make it final.
      await expect
        .poll(
          async () =>
            (
              await t.database.query(
                "select m.status from treasury_movements m join chain_deposits d on d.id = m.deposit_id where d.to_address = $1",
                [address.toLowerCase()],
              )
            ).map((r) => (r as { status: string }).status),
          { timeout: 60_000, interval: 500 },
        )
        .toEqual(["sent"]);
      await chain.mine(CONFIRMATIONS);
      await expect
        .poll(
          async () =>
            (
              await t.database.query(
                "select returned_by is not null as done from chain_deposits where to_address = $1",
                [address.toLowerCase()],
              )
            ).map((r) => (r as { done: boolean }).done),
          { timeout: 60_000, interval: 500 },
        )
        .toEqual([true]);

      await staff.page.reload();
      await staff.page.getByRole("tab", { name: "Settlement" }).click();
      await row
        .getByRole("status")
        .filter({ hasText: "Returned to its sender" })
        .waitFor({ timeout: 30_000 });
      await expectAccessible(staff.page, "the Settlement tab with a returned deposit");
      await row.scrollIntoViewIfNeeded();
      await staff.page.screenshot({ path: `${SHOTS}/return-returned-1280.png`, fullPage: true });
      await staff.page.setViewportSize({ width: 375, height: 812 });
      await row.scrollIntoViewIfNeeded();
      await staff.page.screenshot({ path: `${SHOTS}/return-returned-375.png`, fullPage: true });
      expect(staff.errors).toEqual([]);
      await staff.context.close();

      // On chain: one transfer from the hot wallet back to the sender, for the deposit's exact units.
      const back = await chain.publicClient.getLogs({
        address: chain.token,
        event: TRANSFER,
        args: { from: hot, to: payer },
        fromBlock: 0n,
      });
      expect(back.map((l) => l.args.value)).toEqual([4_321n]);
      await server.stop();
      await expectLedgerClean(t.database);
      await expectReconciled(chain, t.database, config());
    });
  },
);
