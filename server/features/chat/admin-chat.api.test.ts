import { describe, expect, it } from "vitest";
import { CHAT_MESSAGES } from "@/contract/chat";
import { sendChatMessage } from "@/tests/support/chat";
import { setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  type SignedInUser,
  setUpAdminUser,
  setUpVerifiedUser,
} from "@/tests/support/users";

const t = setUpTestApp();
const ada = setUpVerifiedUser(t, { firstName: "Ada", lastName: "Lovelace" });
const bob = setUpVerifiedUser(t, { firstName: "Bob", lastName: "Builder" });
const admin = setUpAdminUser(t, { firstName: "Grace" });

const get = (url: string, who: SignedInUser | null = admin, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers: { ...(who ? { cookie: who.cookie } : {}), ...headers } });
const post = (url: string, payload: unknown, who: SignedInUser | null = admin) =>
  t.app.inject({
    method: "POST",
    url,
    payload: payload as object,
    headers: who ? { cookie: who.cookie } : {},
  });
const send = (who: SignedInUser, message: string) => sendChatMessage(t.app, who, message);

describe("the admin chat routes are for admins only", () => {
  const routes = () => [
    ["GET", "/api/admin/chats"],
    ["GET", `/api/admin/chats/${ada.user.id}`],
    ["GET", `/api/admin/chats/${ada.user.id}/customer`],
    ["POST", `/api/admin/chats/${ada.user.id}/reply`],
  ];

  it("answers 401 signed out and 403 to a customer", async () => {
    for (const [method, url] of routes()) {
      const payload = method === "POST" ? { message: "hi" } : undefined;
      const out = await t.app.inject({ method: method as "GET", url: url!, payload });
      expect(out.statusCode, `${method} ${url}`).toBe(401);
      const customer = await t.app.inject({
        method: method as "GET",
        url: url!,
        payload,
        headers: { cookie: ada.cookie },
      });
      expect(customer.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("never lets a customer write into another's conversation through the admin reply", async () => {
    const res = await post(`/api/admin/chats/${bob.user.id}/reply`, { message: "I am support, honest" }, ada);
    expect(res.statusCode).toBe(403);
    const bobs = (await get("/api/chat/messages", bob)).json();
    expect(bobs).toEqual([]);
  });
});

describe("the support inbox", () => {
  it("lists one row per customer with a conversation, newest activity first, with unread counts", async () => {
    expect((await get("/api/admin/chats")).json().items).toEqual([]);
    await send(ada, "First question from Ada");
    await send(bob, "Bob here");
    await send(ada, "Second question from Ada, which is rather long indeed");

    const list = (await get("/api/admin/chats")).json().items;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      userId: ada.user.id,
      user: { id: ada.user.id, firstName: "Ada", lastName: "Lovelace", email: ada.email },
      lastMessage: { message: "Second question from Ada, which is rather long indeed", isFromUser: true },
      unreadCount: 2,
    });
    expect(list[1]).toMatchObject({ userId: bob.user.id, unreadCount: 1 });
  });

  it("clears the unread count when support opens the conversation, and shows it oldest first", async () => {
    const thread = await get(`/api/admin/chats/${ada.user.id}`);
    expect(thread.statusCode).toBe(200);
    expect(thread.json().map((m: { message: string }) => m.message)).toEqual([
      "First question from Ada",
      "Second question from Ada, which is rather long indeed",
    ]);
    expect(thread.json()[0].readAt).not.toBeNull();
    const list = (await get("/api/admin/chats")).json().items;
    expect(list.find((c: { userId: string }) => c.userId === ada.user.id).unreadCount).toBe(0);
    expect(list.find((c: { userId: string }) => c.userId === bob.user.id).unreadCount).toBe(1);
  });

  it("replies as support: trimmed, audit-logged, and shown to the customer on the left", async () => {
    const res = await post(`/api/admin/chats/${ada.user.id}/reply`, { message: "  Happy to help!  " });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: "Happy to help!", isFromUser: false, readAt: null });

    const adas = (await get("/api/chat/messages", ada)).json();
    expect(adas.at(-1)).toMatchObject({ message: "Happy to help!", isFromUser: false });
    expect(Object.keys(adas.at(-1)).sort()).toEqual(["createdAt", "id", "isFromUser", "message"]);

    const audit = await t.database.query<{ actor_id: string; action: string; target_id: string }>(
      "select actor_id, action, target_id from audit_log where action = 'chat.reply'",
    );
    expect(audit).toEqual([{ actor_id: admin.user.id, action: "chat.reply", target_id: ada.user.id }]);

    // Support sees that the customer has read the reply.
    const thread = (await get(`/api/admin/chats/${ada.user.id}`)).json();
    expect(thread.at(-1).readAt).not.toBeNull();
    expect((await get("/api/admin/chats")).json().items[0]).toMatchObject({
      userId: ada.user.id,
      lastMessage: { message: "Happy to help!", isFromUser: false },
    });
  });

  it("applies the same message rules to replies", async () => {
    const empty = await post(`/api/admin/chats/${ada.user.id}/reply`, { message: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(CHAT_MESSAGES.required);
    const long = await post(`/api/admin/chats/${ada.user.id}/reply`, { message: "x".repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(CHAT_MESSAGES.tooLong);
  });

  it("keeps markup from either side as text on the admin side too", async () => {
    const script = "<script>document.cookie</script>";
    await send(bob, script);
    const list = (await get("/api/admin/chats")).json().items;
    expect(list[0].lastMessage.message).toBe(script);
    const thread = (await get(`/api/admin/chats/${bob.user.id}`)).json();
    expect(thread.at(-1).message).toBe(script);
    const replied = await post(`/api/admin/chats/${bob.user.id}/reply`, { message: "<b>bold?</b>" });
    expect(replied.json().message).toBe("<b>bold?</b>");
  });

  it("answers 404 for an unknown user and 400 for a malformed id", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await get(`/api/admin/chats/${unknown}`)).statusCode).toBe(404);
    expect((await get(`/api/admin/chats/${unknown}/customer`)).statusCode).toBe(404);
    const replyUnknown = await post(`/api/admin/chats/${unknown}/reply`, { message: "hello?" });
    expect(replyUnknown.statusCode).toBe(404);
    expect(replyUnknown.json().message).toBe(CHAT_MESSAGES.userNotFound);
    for (const url of ["/api/admin/chats/not-a-uuid", "/api/admin/chats/1'%20or%201=1/reply"]) {
      const res = url.endsWith("reply") ? await post(url, { message: "x" }) : await get(url);
      expect(res.statusCode, url).toBe(400);
    }
  });

  it("lets support write first to a customer who has not written yet", async () => {
    const carol = await createVerifiedUser(t.database, { firstName: "Carol" });
    expect((await get(`/api/admin/chats/${carol.user.id}`)).json()).toEqual([]);
    const res = await post(`/api/admin/chats/${carol.user.id}/reply`, { message: "Welcome aboard" });
    expect(res.statusCode).toBe(200);
    expect((await get("/api/admin/chats")).json().items[0]).toMatchObject({
      userId: carol.user.id,
      unreadCount: 0,
    });
  });
});

describe("admin polling", () => {
  it("answers 304 on a repeat poll of the inbox and 200 once a message arrives or is read", async () => {
    const first = await get("/api/admin/chats");
    const etag = first.headers.etag as string;
    const again = await get("/api/admin/chats", admin, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");

    await send(ada, "New one");
    const changed = await get("/api/admin/chats", admin, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    const unreadEtag = changed.headers.etag as string;

    await get(`/api/admin/chats/${ada.user.id}`);
    const read = await get("/api/admin/chats", admin, { "if-none-match": unreadEtag });
    expect(read.statusCode).toBe(200);
    expect(read.json().items[0].unreadCount).toBe(0);
  });

  it("serves a conversation with ?after= and 304", async () => {
    const thread = await get(`/api/admin/chats/${ada.user.id}`);
    const last = thread.json().at(-1).id as number;
    expect((await get(`/api/admin/chats/${ada.user.id}?after=${last}`)).json()).toEqual([]);
    expect((await get(`/api/admin/chats/${ada.user.id}?after=abc`)).statusCode).toBe(400);
    const repeat = await get(`/api/admin/chats/${ada.user.id}`, admin, {
      "if-none-match": thread.headers.etag as string,
    });
    expect(repeat.statusCode).toBe(304);
    await send(ada, "and another");
    const newer = (await get(`/api/admin/chats/${ada.user.id}?after=${last}`)).json();
    expect(newer.map((m: { message: string }) => m.message)).toEqual(["and another"]);
  });
});

describe("who support is talking to", () => {
  it("shows the customer's profile, with onboarding and money fields empty until those land", async () => {
    const res = await get(`/api/admin/chats/${ada.user.id}/customer`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: ada.user.id,
      firstName: "Ada",
      lastName: "Lovelace",
      email: ada.email,
      pillarTag: ada.user.pillarTag,
      phoneNumber: ada.user.phoneNumber,
      kycStatus: null,
      accountRequestStatus: null,
      totalBalance: "$0.00",
      availableBalance: "$0.00",
      pendingBalance: "$0.00",
      recentTransfers: [],
    });
    expect(res.json().memberSince).toBe(ada.user.createdAt.toISOString());
  });
});

describe("deleting a customer", () => {
  it("removes their conversation from the inbox", async () => {
    const dan = await createVerifiedUser(t.database, { firstName: "Dan" });
    await send(dan, "bye");
    await t.database.query("delete from users where id = $1", [dan.user.id]);
    const list = (await get("/api/admin/chats")).json().items as { userId: string }[];
    expect(list.some((c) => c.userId === dan.user.id)).toBe(false);
  });
});
