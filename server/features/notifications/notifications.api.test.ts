import { afterEach, describe, expect, it } from "vitest";
import {
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationPage,
  UNREAD_NOTIFICATIONS_CAP,
} from "@/contract/notifications";
import { notify } from "@/server/lib/notifications";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

const t = setUpTestApp();
const get = (url: string, cookie: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
const post = (url: string, cookie: string) => t.app.inject({ method: "POST", url, headers: { cookie } });
const put = (url: string, cookie: string, payload: unknown) =>
  t.app.inject({ method: "PUT", url, headers: { cookie }, payload: payload as object });

const mailTo = async (email: string) =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from mail_outbox where to_address = $1",
      [email],
    )
  )[0]!.n;

afterEach(async () => {
  await t.database.query("delete from mail_outbox");
});

describe("notification centre", () => {
  it("pages newest first by keyset, counts unread, marks one and all read", async () => {
    const alice = await createVerifiedUser(t.database);
    for (let i = 0; i < NOTIFICATIONS_PAGE_SIZE + 3; i++) {
      await notify(t.database.db, alice.user.id, "money_in", { title: `Credit ${i}`, body: "" });
    }
    expect((await get("/api/notifications/unread", alice.cookie)).json()).toEqual({
      unread: NOTIFICATIONS_PAGE_SIZE + 3,
    });
    const first = (await get("/api/notifications", alice.cookie)).json();
    expect(first.items).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    expect(first.items[0].title).toBe(`Credit ${NOTIFICATIONS_PAGE_SIZE + 2}`);
    const second = (await get(`/api/notifications?before=${first.nextBefore}`, alice.cookie)).json();
    expect(second.items.map((n: { title: string }) => n.title)).toEqual(["Credit 2", "Credit 1", "Credit 0"]);
    expect(second.nextBefore).toBeNull();

    const one = await post(`/api/notifications/${first.items[0].id}/read`, alice.cookie);
    expect(one.json().isRead).toBe(true);
    expect((await get("/api/notifications/unread", alice.cookie)).json().unread).toBe(
      NOTIFICATIONS_PAGE_SIZE + 2,
    );
    expect((await post("/api/notifications/read-all", alice.cookie)).json()).toEqual({
      marked: NOTIFICATIONS_PAGE_SIZE + 2,
    });
    expect((await get("/api/notifications/unread", alice.cookie)).json().unread).toBe(0);
  });

  it("counts unread exactly up to the cap and the cap beyond; the unread filter pages among unread ones", async () => {
    const alice = await createVerifiedUser(t.database);
    // Older notifications read, newer ones not: the unread page must skip the read ones however many there are.
    await t.database.query(
      `insert into notifications (user_id, kind, title, body, read_at)
       select $1, 'money_in', 'Credit ' || n, '', case when n <= 30 then now() end
       from generate_series(1, $2::int) n order by n`,
      [alice.user.id, 30 + UNREAD_NOTIFICATIONS_CAP + 5],
    );
    const unread = async () => (await get("/api/notifications/unread", alice.cookie)).json().unread;
    expect(await unread()).toBe(UNREAD_NOTIFICATIONS_CAP);

    let before: string | null = null;
    const titles: string[] = [];
    do {
      const page: NotificationPage = (
        await get(`/api/notifications?unread=true${before ? `&before=${before}` : ""}`, alice.cookie)
      ).json();
      expect(page.items.every((n) => !n.isRead)).toBe(true);
      titles.push(...page.items.map((n) => n.title));
      before = page.nextBefore;
    } while (before);
    expect(titles).toHaveLength(UNREAD_NOTIFICATIONS_CAP + 5);
    expect(titles[0]).toBe(`Credit ${30 + UNREAD_NOTIFICATIONS_CAP + 5}`);
    expect(titles.at(-1)).toBe("Credit 31");

    await t.database.query(
      `update notifications set read_at = now()
       where id in (select id from notifications where user_id = $1 and read_at is null order by id limit 6)`,
      [alice.user.id],
    );
    expect(await unread()).toBe(UNREAD_NOTIFICATIONS_CAP - 1);
    expect((await post("/api/notifications/read-all", alice.cookie)).json()).toEqual({
      marked: UNREAD_NOTIFICATIONS_CAP - 1,
    });
    expect(await unread()).toBe(0);
  });

  it("never shows or marks another customer's notifications", async () => {
    const alice = await createVerifiedUser(t.database);
    const mallory = await createVerifiedUser(t.database);
    await notify(t.database.db, alice.user.id, "security", { title: "New sign-in", body: "" });
    const [mine] = (await get("/api/notifications", alice.cookie)).json().items;
    expect((await get("/api/notifications", mallory.cookie)).json().items).toEqual([]);
    expect((await post(`/api/notifications/${mine.id}/read`, mallory.cookie)).statusCode).toBe(404);
    await post("/api/notifications/read-all", mallory.cookie);
    expect((await get("/api/notifications/unread", alice.cookie)).json().unread).toBe(1);
  });

  it("refuses the signed out, bad ids and bad cursors", async () => {
    const alice = await createVerifiedUser(t.database);
    expect((await t.app.inject({ method: "GET", url: "/api/notifications" })).statusCode).toBe(401);
    expect((await post("/api/notifications/abc/read", alice.cookie)).statusCode).toBe(400);
    expect((await post("/api/notifications/99999999999/read", alice.cookie)).statusCode).toBe(404);
    expect((await get("/api/notifications?before=1;drop", alice.cookie)).statusCode).toBe(400);
    expect(
      (await put("/api/notifications/preferences", alice.cookie, { kind: "nope", inApp: true, email: true }))
        .statusCode,
    ).toBe(400);
  });

  it("follows the customer's channels per kind; security e-mail cannot be turned off", async () => {
    const alice = await createVerifiedUser(t.database);
    const mail = { to: alice.email, subject: "s", text: "t", html: "<p>t</p>", kind: "test" };
    const off = await put("/api/notifications/preferences", alice.cookie, {
      kind: "money_in",
      inApp: false,
      email: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    await notify(t.database.db, alice.user.id, "money_in", { title: "Credit", body: "" }, mail);
    expect((await get("/api/notifications/unread", alice.cookie)).json().unread).toBe(0);
    expect(await mailTo(alice.email)).toBe(0);

    const locked = await put("/api/notifications/preferences", alice.cookie, {
      kind: "security",
      inApp: true,
      email: false,
    });
    expect(locked.statusCode).toBe(400);
    await put("/api/notifications/preferences", alice.cookie, {
      kind: "security",
      inApp: false,
      email: true,
    });
    await notify(t.database.db, alice.user.id, "security", { title: "New sign-in", body: "" }, mail);
    expect(await mailTo(alice.email)).toBe(1);
    const prefs = (await get("/api/notifications/preferences", alice.cookie)).json();
    expect(prefs.find((p: { kind: string }) => p.kind === "security")).toEqual({
      kind: "security",
      inApp: false,
      email: true,
      emailLocked: true,
    });
  });
});
