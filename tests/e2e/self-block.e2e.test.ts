import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  openAccountThroughApi,
  PASSWORD,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { waitForMail } from "@/tests/e2e/support/mail";

const browser = setUpBrowser();

// Issue 46 items 1, 4, 24 and 28 in the browser: what the block covers, "On until … ET" during the cooldown in
// the refusal's own words, the password asked of a customer with no second factor, and the e-mailed undo link.
describe("Block crypto sends in Settings", () => {
  it("says what it covers, asks the password, reads 'On until … ET' while cooling down, and its e-mail link undoes it", async () => {
    const customer = await openPage(browser);
    const user = await signUpNewCustomer(customer.page, "Blake", "Keeper");
    const applied = await applyThroughApi(customer.context.request, {
      firstName: "Blake",
      lastName: "Keeper",
    });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "50.00");
    const friend = await openPage(browser);
    const friendUser = await signUpNewCustomer(friend.page, "Fern", "Friend");
    await openAccountThroughApi(friendUser);
    console.info("e2e self-block: customers ready");

    await customer.page.goto("/settings#sending-limits");
    const card = customer.page.getByRole("region", { name: "Your sending limits" });
    await card
      .getByText(
        "It stops USDC leaving Pillar: crypto transfers and their schedules. Paying someone by $tag and paying a request stay inside Pillar and are not blocked; your daily limit covers those.",
      )
      .waitFor();
    await card.getByLabel("Cooldown after turning it off").selectOption("7 days");
    await card.getByRole("button", { name: "Block crypto sends" }).click();

    // No second factor: the password confirms it; a wrong one is said in the dialog and changes nothing.
    const dialog = customer.page.getByRole("dialog", { name: "Confirm with your password" });
    await dialog.getByLabel("Password").fill("not-my-password-1");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByText("Password is incorrect").waitFor();
    await shots(customer.page, "self-block-password");
    await expectAccessible(customer.page, "/settings, the password dialog");
    await dialog.getByLabel("Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await card.getByText("On. Turning it off starts a 7-day cooldown.").waitFor();
    await dialog.waitFor({ state: "hidden" });
    console.info("e2e self-block: block on");

    // Switched off, sends stay refused through the cooldown: Settings says "On until …" in the refusal's words.
    await card.getByRole("button", { name: "Turn off (starts the cooldown)" }).click();
    const state = card.getByText(/^On until .+ ET\. No one can end it sooner\.$/);
    await state.waitFor();
    const shown = /^On until (.+ ET)\./.exec((await state.textContent()) ?? "")?.[1];
    expect(shown).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M ET$/);
    await shots(customer.page, "self-block-cooling");
    await expectAccessible(customer.page, "/settings, the block cooling down");
    const refused = await customer.context.request.post("/api/transfer/request", {
      data: {
        amount: "5",
        recipientName: "Ana Ruiz",
        purpose: "Books",
        paymentMethod: "crypto",
        cryptoAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
      },
      headers: { "Idempotency-Key": "self-block-e2e-1" },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toBe(
      `You blocked crypto sends. The block ends on ${shown}, and no one can end it sooner.`,
    );

    // Paying a friend by $tag is not a crypto send.
    const paid = await customer.context.request.post("/api/transfer/tag-payments", {
      data: { tag: `$${friendUser.tag}`, amount: "3" },
      headers: { "Idempotency-Key": "self-block-e2e-tag" },
    });
    expect(paid.status(), await paid.text()).toBe(201);

    // The e-mail sent when it was switched on carries the undo link; it opens the "This wasn't me" page.
    const mail = await waitForMail(user.email, (m) => /crypto sends are blocked/i.test(m.subject));
    const link = /(\/this-wasnt-me#for=send-block&token=[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    const phone = await openPage(browser, 375);
    await phone.page.goto(link!);
    const undo = phone.page.getByRole("button", { name: "Undo the block" });
    await undo.waitFor();
    await expectAccessible(phone.page, "/this-wasnt-me, undo a block");
    await shots(phone.page, "self-block-undo");
    await undo.click();
    await phone.page.getByRole("heading", { name: "Done. The block is undone" }).waitFor();
    expect(phone.page.url()).not.toContain("token=");
    await expectAccessible(phone.page, "/this-wasnt-me, block undone");
    // Every device was signed out; the money can move once the customer has a new password.
    expect((await customer.context.request.get("/api/auth/user")).status()).toBe(401);

    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
  }, 300_000);
});
