import { describe, expect, it } from "vitest";
import { CHAT_MESSAGE_MAX, CHAT_MESSAGES } from "@/contract/chat";
import { replyInChat, sendChatMessage } from "@/tests/support/chat";
import { setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  type SignedInUser,
  setUpAdminUser,
  setUpVerifiedUser,
} from "@/tests/support/users";

const t = setUpTestApp();
const ada = setUpVerifiedUser(t, { firstName: "Ada" });
const bob = setUpVerifiedUser(t, { firstName: "Bob" });
const admin = setUpAdminUser(t, { firstName: "Grace" });

const send = (who: SignedInUser, message: unknown) => sendChatMessage(t.app, who, message);
const messages = (who: SignedInUser, query = "", headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "GET",
    url: `/api/chat/messages${query}`,
    headers: { cookie: who.cookie, ...headers },
  });
const reply = (userId: string, message: string) => replyInChat(t.app, admin, userId, message);

describe("a customer's own conversation", () => {
  it("refuses signed-out visitors with 401", async () => {
    for (const res of [
      await t.app.inject({ method: "GET", url: "/api/chat/messages" }),
      await t.app.inject({ method: "GET", url: "/api/chat/unread" }),
      await t.app.inject({ method: "POST", url: "/api/chat/send", payload: { message: "hi" } }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("UNAUTHORIZED");
    }
  });

  it("starts empty", async () => {
    const res = await messages(ada);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("stores a trimmed message and returns it oldest first", async () => {
    const first = await send(ada, "  Hello, I need help with my transfer  \n");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ message: "Hello, I need help with my transfer", isFromUser: true });
    expect(typeof first.json().id).toBe("number");
    expect(new Date(first.json().createdAt).toString()).not.toBe("Invalid Date");

    await send(ada, "Line one\r\nLine two");
    const list = (await messages(ada)).json();
    expect(list.map((m: { message: string }) => m.message)).toEqual([
      "Hello, I need help with my transfer",
      "Line one\nLine two",
    ]);
    expect(list[0].id).toBeLessThan(list[1].id);
  });

  it("refuses an empty or blank message with 'Please enter a message'", async () => {
    for (const message of ["", "   \n\t ", undefined, null, 42]) {
      const res = await send(ada, message);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(CHAT_MESSAGES.required);
    }
  });

  it("accepts 2,000 characters and refuses 2,001 with a clear message", async () => {
    const atLimit = await send(bob, "a".repeat(CHAT_MESSAGE_MAX));
    expect(atLimit.statusCode).toBe(200);
    const over = await send(bob, "a".repeat(CHAT_MESSAGE_MAX + 1));
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe("Message must be at most 2,000 characters");
  });

  it("strips control characters a database cannot store instead of failing", async () => {
    const res = await send(bob, "nul\u0000 byte\u0007");
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe("nul byte");
  });

  it("stores and returns markup as plain text, exactly as typed", async () => {
    const script = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const res = await send(bob, script);
    expect(res.json().message).toBe(script);
    const list = (await messages(bob)).json();
    expect(list.at(-1).message).toBe(script);
    expect((await messages(bob)).headers["content-type"]).toMatch(/^application\/json/);
  });

  it("never shows one customer another's conversation", async () => {
    await send(ada, "ada's private question");
    const bobs = (await messages(bob)).json() as { message: string }[];
    expect(bobs.some((m) => m.message.includes("ada"))).toBe(false);
    const adas = (await messages(ada)).json() as { message: string }[];
    expect(adas.some((m) => m.message.includes("<script>"))).toBe(false);
  });

  it("ignores a userId smuggled into the body: a customer only ever writes to their own conversation", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/chat/send",
      headers: { cookie: bob.cookie },
      payload: { message: "to ada?", userId: ada.user.id },
    });
    expect(res.statusCode).toBe(200);
    const adas = (await messages(ada)).json() as { message: string }[];
    expect(adas.some((m) => m.message === "to ada?")).toBe(false);
  });

  it("refuses a cross-site post", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/chat/send",
      headers: { cookie: ada.cookie, origin: "https://evil.example" },
      payload: { message: "hi" },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("polling stays cheap", () => {
  it("answers only newer messages with ?after=", async () => {
    const all = (await messages(ada)).json() as { id: number }[];
    const last = all.at(-1)!.id;
    expect((await messages(ada, `?after=${last}`)).json()).toEqual([]);
    const fresh = await send(ada, "one more");
    const newer = (await messages(ada, `?after=${last}`)).json();
    expect(newer).toEqual([fresh.json()]);
  });

  it("refuses an after that is not a positive integer id with 400", async () => {
    for (const bad of ["0", "-1", "abc", "1.5", "1e3", "", "99999999999999999999"]) {
      const res = await messages(ada, `?after=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(CHAT_MESSAGES.afterInvalid);
    }
  });

  it("answers a repeat poll with 304 and no body, and 200 again once something changes", async () => {
    const first = await messages(ada);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"chat-user-/);
    expect(first.headers["cache-control"]).toBe("no-store");

    const again = await messages(ada, "", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);

    await reply(ada.user.id, "We are on it");
    const changed = await messages(ada, "", { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().at(-1)).toMatchObject({ message: "We are on it", isFromUser: false });
    expect(changed.headers.etag).not.toBe(etag);

    const settled = await messages(ada, "", { "if-none-match": changed.headers.etag as string });
    expect(settled.statusCode).toBe(304);
  });

  it("keeps a separate validator per ?after= so a client never mistakes one view for another", async () => {
    const full = await messages(ada);
    const after = await messages(ada, "?after=1", { "if-none-match": full.headers.etag as string });
    expect(after.statusCode).toBe(200);
  });

  it("does not wake a customer's poll when support merely reads their messages", async () => {
    await send(bob, "anyone there?");
    const before = await messages(bob);
    await t.app.inject({
      method: "GET",
      url: `/api/admin/chats/${bob.user.id}`,
      headers: { cookie: admin.cookie },
    });
    const after = await messages(bob, "", { "if-none-match": before.headers.etag as string });
    expect(after.statusCode).toBe(304);
  });
});

describe("unread replies for the dashboard badge", () => {
  it("counts support replies until the customer opens the conversation", async () => {
    const carol = await createVerifiedUser(t.database, { firstName: "Carol" });
    const unread = () =>
      t.app.inject({ method: "GET", url: "/api/chat/unread", headers: { cookie: carol.cookie } });
    expect((await unread()).json()).toEqual({ unreadCount: 0 });

    await send(carol, "Where is my card?");
    expect((await unread()).json()).toEqual({ unreadCount: 0 });
    await reply(carol.user.id, "Cards are coming soon.");
    await reply(carol.user.id, "Anything else?");
    expect((await unread()).json()).toEqual({ unreadCount: 2 });

    // Polling the unread count does not mark anything read; opening the conversation does.
    expect((await unread()).json()).toEqual({ unreadCount: 2 });
    await messages(carol);
    expect((await unread()).json()).toEqual({ unreadCount: 0 });
  });
});
