import { describe, expect, inject, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
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

// Decision 047 in the browser: what the block covers, "On until … ET" during the cooldown in
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

    // Compliance sees the block on the customer's details and proposes lifting it, identity re-verified; a second
    // member approves it in the Approvals tab, and the customer's Settings reads "Off." again.
    await admin.page.goto("/admin");
    await admin.page.getByLabel("Search users").fill(user.email);
    await admin.page.getByRole("button", { name: "View details for Blake Keeper" }).click();
    const details = admin.page.getByRole("dialog", { name: "User Details" });
    await details.getByRole("heading", { name: "Crypto sends blocked by the customer" }).waitFor();
    await details.getByText(`On until ${shown}.`, { exact: false }).waitFor();
    await shots(admin.page, "self-block-admin-details");
    await expectAccessible(admin.page, "User Details, a customer's own block");
    await details.getByRole("button", { name: "Lift the block…" }).click();
    const ask = admin.page.getByRole("dialog", { name: "Lift Blake Keeper's block?" });
    await ask.getByRole("button", { name: "Send for approval" }).click();
    await ask.getByText("Say how you re-verified the customer's identity").waitFor();
    await ask
      .getByLabel("How you re-verified their identity")
      .fill("Video call, licence photo and date of birth");
    await ask.getByLabel("Reason").fill("Customer says someone else set it on a shared laptop");
    await ask.getByRole("button", { name: "Send for approval" }).click();
    await toastWith(admin.page, "Sent for approval").waitFor();
    const checker = await openPage(browser);
    await signInAsAdmin(checker.page, undefined, inject("checkerEmail"));
    await checker.page.goto("/admin");
    await checker.page.getByRole("tab", { name: "Approvals" }).click();
    const request = checker.page.getByRole("listitem", {
      name: "Lift a customer's send block for Blake Keeper",
    });
    await request.getByText(/identity re-verified: Video call, licence photo and date of birth/).waitFor();
    await request.getByRole("button", { name: /^Approve/ }).click();
    await toastWith(checker.page, "Approved").waitFor();
    await customer.page.reload();
    await card.getByText("Off.", { exact: true }).waitFor();
    console.info("e2e self-block: lifted by two compliance members");

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
