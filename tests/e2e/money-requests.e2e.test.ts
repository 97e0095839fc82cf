import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  openAccountThroughApi,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { recordNetwork } from "@/tests/e2e/support/network";

const browser = setUpBrowser();

describe("requesting money by $tag", () => {
  it("asks another customer for $5; their open /pay shows it at once, they pay it, and the asker sees it paid", async () => {
    const payer = await openPage(browser);
    const payerUser = await signUpNewCustomer(payer.page, "Nadia", "Payer");
    const applied = await applyThroughApi(payer.context.request, { firstName: "Nadia", lastName: "Payer" });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "50.00");

    const asker = await openPage(browser);
    const askerUser = await signUpNewCustomer(asker.page, "Omar", "Asker");
    await openAccountThroughApi(askerUser);

    // The payer's /pay is open, its stream healthy, before anyone asks.
    const payerNetwork = await recordNetwork(payer.page);
    await payer.page.goto("/pay");
    const incoming = payer.page.getByRole("region", { name: "Requests to you" });
    await incoming.getByText("No one has asked you for money.").waitFor();
    await payerNetwork.waitForNotice((n) => n.eventName === "ready");

    const askerNetwork = await recordNetwork(asker.page);
    // The asker checks the tag (the name comes back masked) and asks for $5 with a note.
    await asker.page.goto("/pay");
    await asker.page.getByLabel("Their $tag").fill(`$${payerUser.tag}`);
    await asker.page.getByRole("button", { name: "Check $tag" }).click();
    await asker.page.getByText("Na*** P.", { exact: true }).waitFor();
    await asker.page.getByLabel("Amount").fill("5");
    await asker.page.getByLabel("Note (optional)").fill("Pizza");
    await asker.page.getByRole("button", { name: "Request from Na*** P." }).click();
    await toastWith(asker.page, "Request sent").waitFor();
    const outgoing = asker.page.getByRole("region", { name: "Your requests" });
    await outgoing.getByText("Waiting", { exact: true }).waitFor();
    await outgoing.getByText("“Pizza”").waitFor();

    // The payer's open page shows it without a reload (the pushed notice), naming the asker's tag.
    await incoming.getByText(`($${askerUser.tag})`).waitFor({ timeout: 10_000 });
    await incoming.getByText("$5.00").waitFor();
    await incoming.getByText("“Pizza”").waitFor();
    expect(payerNetwork.requests.filter((r) => r.type === "Document").length).toBe(1);
    await shots(payer.page, "pay-requests-incoming");
    await expectAccessible(payer.page, "/pay with a request to pay");

    // The payer pays it, after a confirmation that names whom.
    await incoming.getByRole("button", { name: `Pay $5.00 to $${askerUser.tag}` }).click();
    const dialog = payer.page.getByRole("alertdialog");
    await dialog.getByText("Pay $5.00 to Om*** A.?").waitFor();
    await expectAccessible(payer.page, "/pay's confirmation of a request payment");
    const paidAt = askerNetwork.now();
    await dialog.getByRole("button", { name: "Pay $5.00 now" }).click();
    await toastWith(payer.page, "Payment sent").waitFor();
    await incoming.getByText("Paid", { exact: true }).waitFor();

    // The asker's open page shows it paid, without a reload.
    await outgoing.getByText("Paid", { exact: true }).waitFor({ timeout: 10_000 });
    // Brought by the pushed notice (the lists poll only while the stream is down), on the page opened before.
    await askerNetwork.waitForNotice(
      (n) => n.eventName === "change" && n.at > paidAt && /"requests"/.test(n.data),
    );
    expect(askerNetwork.requests.filter((r) => r.type === "Document").length).toBe(1);
    expect(await outgoing.getByRole("button", { name: /Cancel request/ }).count()).toBe(0);
    await shots(asker.page, "pay-requests-outgoing-paid");
    await expectAccessible(asker.page, "/pay with a paid request");

    const askerSummary = await (await asker.context.request.get("/api/account/summary")).json();
    expect(askerSummary.availableBalance).toBe("$5.00");
    const payerSummary = await (await payer.context.request.get("/api/account/summary")).json();
    expect(payerSummary.availableBalance).toBe("$45.00");
    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    await payerNetwork.stop();
    await askerNetwork.stop();
    expect(payer.errors).toEqual([]);
    expect(asker.errors).toEqual([]);
  }, 300_000);

  it("blocks a requester from their request; their next one never shows; unblocking lets them ask again", async () => {
    const payer = await openPage(browser);
    const payerUser = await signUpNewCustomer(payer.page, "Bea", "Blocker");
    await openAccountThroughApi(payerUser);
    const asker = await openPage(browser);
    const askerUser = await signUpNewCustomer(asker.page, "Pete", "Pest");
    await openAccountThroughApi(askerUser);
    const ask = async (amount: string) => {
      const res = await asker.context.request.post("/api/transfer/requests", {
        data: { tag: `$${payerUser.tag}`, amount, note: "Your account is locked: https://example.test" },
      });
      expect(res.status()).toBe(201);
      expect((await res.json()).message).toBe("Request sent");
    };
    await ask("9.00");

    await payer.page.goto("/pay");
    const incoming = payer.page.getByRole("region", { name: "Requests to you" });
    await incoming.getByText(`($${askerUser.tag})`).waitFor();
    const blocked = payer.page.getByRole("region", { name: "Blocked requesters" });
    await blocked.getByText(/^No one\./).waitFor();
    await shots(payer.page, "pay-requests-block-button");
    await incoming.getByRole("button", { name: `Block $${askerUser.tag} from sending you requests` }).click();
    const dialog = payer.page.getByRole("alertdialog");
    await dialog.getByText(`Block $${askerUser.tag}?`).waitFor();
    await expectAccessible(payer.page, "/pay confirming a block");
    await dialog.getByRole("button", { name: `Block $${askerUser.tag}` }).click();
    await toastWith(payer.page, `$${askerUser.tag} can no longer send you requests`).waitFor();
    await incoming.getByText("No one has asked you for money.").waitFor();
    await blocked.getByText(`($${askerUser.tag})`).waitFor();

    // The blocked requester is answered as ever; nothing reaches the payer, even after a reload.
    await ask("10.00");
    await payer.page.reload();
    await blocked.getByText(`($${askerUser.tag})`).waitFor();
    expect(await incoming.getByText("No one has asked you for money.").count()).toBe(1);
    await shots(payer.page, "pay-requests-blocked");
    await expectAccessible(payer.page, "/pay with a blocked requester");

    await blocked.getByRole("button", { name: `Unblock $${askerUser.tag}` }).click();
    await toastWith(payer.page, `$${askerUser.tag} can send you requests again`).waitFor();
    await blocked.getByText(/^No one\./).waitFor();
    await ask("11.00");
    await incoming.getByText("$11.00").waitFor({ timeout: 10_000 });
    expect(await incoming.getByText("$10.00").count()).toBe(0);
    expect(payer.errors).toEqual([]);
  }, 300_000);

  it("fits a phone's 375 px: the request form and the lists stay in the screen", async () => {
    const phone = await openPage(browser, 375);
    const user = await signUpNewCustomer(phone.page, "Lena", "Phone");
    await openAccountThroughApi(user);
    await phone.page.goto("/pay");
    await phone.page.getByRole("region", { name: "Your requests" }).waitFor();
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(phone.page, "/pay at 375 px");
  }, 120_000);
});
