import { beforeAll, describe, expect, it } from "vitest";
import { notifyUnreadReplies, REPLY_NOTIFY_DELAY_SECONDS } from "@/server/features/chat/reply-notifier";
import { replyInChat, sendChatMessage } from "@/tests/support/chat";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, PUBLIC_URL: "https://bank.example" }));
beforeAll(() => t.app.ready());
const admin = setUpAdminUser(t);

const send = (who: SignedInUser, message: string) => sendChatMessage(t.app, who, message);
const reply = (userId: string, message: string) => replyInChat(t.app, admin, userId, message);
/** Moves a customer's replies back in time instead of waiting ten minutes. */
const age = (userId: string, seconds: number) =>
  t.database.query(
    "update chat_messages set created_at = created_at - make_interval(secs => $2) where user_id = $1 and is_from_user = false",
    [userId, seconds],
  );
const outbox = (to: string) =>
  t.database.query<{ kind: string }>(
    "select kind from mail_outbox where to_address = $1 and kind = 'chat_reply'",
    [to],
  );

describe("e-mail when a support reply stays unread", () => {
  it("mails the customer once, through the outbox, after ten unread minutes", async () => {
    const ada = await createVerifiedUser(t.database, { firstName: "Ada" });
    await send(ada, "Is my transfer through?");
    await reply(ada.user.id, "<b>Yes</b>, it completed this morning.");
    await reply(ada.user.id, "Anything else?");

    expect(await notifyUnreadReplies(t.database)).toBe(0);
    await age(ada.user.id, REPLY_NOTIFY_DELAY_SECONDS + 5);
    expect(await notifyUnreadReplies(t.database, { publicUrl: "https://bank.example" })).toBe(1);

    const mail = await sink.waitForMail(ada.email);
    expect(mail.subject).toBe("Pillar support replied to your message");
    expect(mail.text).toContain("Hello Ada");
    expect(mail.text).toContain("https://bank.example/contact");
    // The reply itself stays in the bank: the e-mail only says there is one.
    expect(mail.text).not.toContain("completed this morning");
    expect(mail.html).not.toContain("<b>Yes</b>");

    expect(await notifyUnreadReplies(t.database)).toBe(0);
    expect(await outbox(ada.email)).toHaveLength(1);
  });

  it("does not mail a customer who has read the reply", async () => {
    const bob = await createVerifiedUser(t.database, { firstName: "Bob" });
    await send(bob, "Hi");
    await reply(bob.user.id, "Hello Bob");
    await t.app.inject({ method: "GET", url: "/api/chat/messages", headers: { cookie: bob.cookie } });
    await age(bob.user.id, REPLY_NOTIFY_DELAY_SECONDS + 5);
    expect(await notifyUnreadReplies(t.database)).toBe(0);
    expect(await outbox(bob.email)).toHaveLength(0);
  });

  it("never mails twice when several instances run the pass at the same moment", async () => {
    const customers = await Promise.all(
      [1, 2, 3, 4].map((i) => createVerifiedUser(t.database, { firstName: `Cust${i}` })),
    );
    for (const c of customers) {
      await send(c, "Question");
      await reply(c.user.id, "Answer");
      await age(c.user.id, REPLY_NOTIFY_DELAY_SECONDS + 5);
    }
    const passes = await Promise.all([1, 2, 3].map(() => notifyUnreadReplies(t.database, { batchSize: 2 })));
    const more = await notifyUnreadReplies(t.database);
    expect(passes.reduce((a, b) => a + b, 0) + more).toBe(4);
    for (const c of customers) expect(await outbox(c.email)).toHaveLength(1);
  });

  it("mails again for a new reply after the customer read the earlier ones", async () => {
    const dan = await createVerifiedUser(t.database, { firstName: "Dan" });
    await send(dan, "Q1");
    await reply(dan.user.id, "A1");
    await age(dan.user.id, REPLY_NOTIFY_DELAY_SECONDS + 5);
    expect(await notifyUnreadReplies(t.database)).toBe(1);
    await t.app.inject({ method: "GET", url: "/api/chat/messages", headers: { cookie: dan.cookie } });
    await reply(dan.user.id, "A2");
    await age(dan.user.id, REPLY_NOTIFY_DELAY_SECONDS + 5);
    expect(await notifyUnreadReplies(t.database)).toBe(1);
    expect(await outbox(dan.email)).toHaveLength(2);
  });
});
