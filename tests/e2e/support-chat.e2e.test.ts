import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import { newUser, shot, signIn, signInAsAdmin, signUp } from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();

/** Where a bubble sits in its scrolling log: "right" when it ends at the log's right edge and starts past the middle. */
async function sideOf(bubble: Locator, log: Locator): Promise<"left" | "right"> {
  const b = (await bubble.boundingBox())!;
  const l = (await log.boundingBox())!;
  const rightGap = l.x + l.width - (b.x + b.width);
  const leftGap = b.x - l.x;
  return rightGap < leftGap ? "right" : "left";
}

/** Any alert/confirm/prompt the page opens is recorded (and dismissed) so the journey can assert there were none. */
function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return dialogs;
}

describe("support chat journey", () => {
  it("a customer writes, support sees it unread, opens and replies, and the reply arrives without a reload", async () => {
    const customer = await openPage(browser);
    const { page } = customer;
    const customerDialogs = recordDialogs(page);
    const user = { ...newUser("Chloe"), lastName: "Writer" };
    const name = `${user.firstName} ${user.lastName}`;
    await signUp(page, user);
    await signIn(page, user.email);

    await page.goto("/contact");
    await page.getByRole("heading", { name: "Contact Support" }).waitFor();
    await page.getByText("Start a conversation").waitFor();
    const log = page.getByRole("log", { name: "Conversation with support" });
    const input = page.getByPlaceholder("Type your message...");

    const question = "Hello, my debit card has not arrived yet.";
    await input.fill(question);
    await input.press("Enter");
    await toastWith(page, "Message Sent").waitFor();
    await expect.poll(() => input.inputValue()).toBe("");
    const questionBubble = log.getByText(question, { exact: true });
    await questionBubble.waitFor();
    expect(await sideOf(questionBubble, log)).toBe("right");

    const script = "<script>alert(1)</script>";
    await input.fill(script);
    await input.press("Enter");
    const scriptBubble = log.getByText(script, { exact: true });
    await scriptBubble.waitFor();
    expect(await sideOf(scriptBubble, log)).toBe("right");
    await shot(page, "contact-sent");

    // Support sees the conversation with two unread messages, opens it, and the count clears.
    const admin = await openPage(browser);
    const adminDialogs = recordDialogs(admin.page);
    await signInAsAdmin(admin.page);
    await admin.page.getByRole("tab", { name: "User Chats" }).click();
    const conversation = admin.page.getByRole("button", { name: new RegExp(`^${name}`) });
    await conversation.getByText("2", { exact: true }).waitFor();
    // The row's name is its visible text (axe label-content-name-mismatch in this list).
    await expectAccessible(admin.page, "User Chats inbox");
    await expect.poll(() => conversation.textContent()).toMatch(/2 unread$/);
    await shot(admin.page, "admin-chats-inbox");
    await conversation.click();
    const thread = admin.page.getByRole("log", { name: `Conversation with ${name}` });
    await thread.getByText(question, { exact: true }).waitFor();
    await thread.getByText(script, { exact: true }).waitFor();
    await expect.poll(() => conversation.textContent()).not.toMatch(/unread/);
    expect(await conversation.getByText("2", { exact: true }).count()).toBe(0);

    const answer = "Thanks Chloe, a new card is on its way and should arrive in 3 days.";
    await admin.page.getByLabel(`Reply to ${name}`).fill(answer);
    await admin.page.getByRole("button", { name: "Send Reply" }).click();
    await toastWith(admin.page, "Reply sent successfully").waitFor();
    const repliedAt = Date.now();
    await thread.getByText(answer, { exact: true }).waitFor();
    await shot(admin.page, "admin-chats-thread");

    // The customer's open /contact page shows the reply, labelled Support, within one poll and no reload.
    const replyBubble = log.getByText(answer, { exact: true });
    await replyBubble.waitFor({ timeout: 7000 });
    expect(Date.now() - repliedAt).toBeLessThan(7000);
    await log.locator("li", { hasText: answer }).getByText("Support", { exact: true }).waitFor();
    expect(await sideOf(replyBubble, log)).toBe("left");
    await shot(page, "contact-replied");

    // Back on the dashboard, a second reply shows on the support shortcut until the customer reads it.
    await page.getByRole("link", { name: "Pillar dashboard" }).click();
    await page.getByRole("link", { name: "Contact Support Live chat with our team" }).waitFor();
    const followUp = "Is there anything else I can help with?";
    await admin.page.getByLabel(`Reply to ${name}`).fill(followUp);
    await admin.page.getByLabel(`Reply to ${name}`).press("Enter");
    await toastWith(admin.page, "Reply sent successfully").waitFor();
    const shortcut = page.getByRole("link", { name: "Contact Support 1 new reply from support" });
    await shortcut.waitFor({ timeout: 15_000 });
    await shot(page, "dashboard-support-unread");
    await shortcut.click();
    await log.getByText(followUp, { exact: true }).waitFor();
    await page.goBack();
    await page.getByRole("link", { name: "Contact Support Live chat with our team" }).waitFor();
    // Support sees the replies as read.
    await thread.getByText("Read by customer").first().waitFor({ state: "attached", timeout: 12_000 });

    // The script was only ever text: no dialog on either side, no injected element.
    expect(await page.locator("li script").count()).toBe(0);
    expect(await admin.page.locator("li script").count()).toBe(0);
    expect(customerDialogs).toEqual([]);
    expect(adminDialogs).toEqual([]);

    expect(customer.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await customer.context.close();
    await admin.context.close();
  });
});
