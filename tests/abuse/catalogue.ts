import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { ADMIN_ROUTE_ROLES } from "@/contract/admin-route-roles";
import { type Endpoint, isStaffAccess, splitEndpointKey } from "@/contract/endpoint";
import { type ContractKey, ENDPOINTS } from "@/contract/endpoints";
import { holdsAnyRole, type StaffRole } from "@/contract/staff";
import { passkeys, savedRecipients, transferSchedules } from "@/server/db/schema";
import { addDays } from "@/server/features/schedules/schedule-dates";

import { monthOf } from "@/server/features/statements/statement-month";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import {
  actor,
  type BaseRole,
  freshCookie,
  frozenVictim,
  type Request,
  type Role,
  type StaffColumn,
  type Table,
  victim,
  type World,
} from "@/tests/abuse/world";
import { ETH_ADDRESS } from "@/tests/support/money";
import { listFiles, uploadBody } from "@/tests/support/ofac-files";
import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { createVerifiedUser, TEST_PASSWORD } from "@/tests/support/users";

/**
 * Every route the app registers, with one well-formed request and the exact status each role gets.
 * "user" is customer A, who owns every id in the request; "otherUser" is customer B sending A's ids (IDOR);
 * "admin" is an owner (every staff role). A route missing from here fails the inventory test.
 *
 * The support, compliance and finance columns come from the role table (expectedStatus below): on an admin
 * route a role ADMIN_ROUTE_ROLES names gets the owner's status for the same well-formed request, any other
 * role 403 roleRequired; elsewhere staff get what the owner gets. `staff` overrides a column where a role's
 * answer differs. So a new admin route is checked for every role as soon as it has its row and its case here.
 */
export interface RouteCase {
  /** Who the route is for. */
  access: "public" | "user" | "admin" | "dev";
  /** A well-formed request; `role` lets a destructive route pick a target of its own. */
  build(w: World, role: Role): Promise<Omit<Request, "method">> | Omit<Request, "method">;
  expect: Record<BaseRole, number>;
  /** A staff column whose status is not the one the role table implies (e.g. documents, which follow DOCUMENT_ROLES). */
  staff?: Partial<Record<StaffColumn, number>>;
  /** Tables a refusal deliberately writes (a wrong one-time code uses up one of its attempts). */
  refusalWrites?: Table[];
  /** Fuzzed by fuzz.api.test.ts: which parts carry client input. */
  input?: { body?: boolean; query?: boolean; params?: boolean };
}

const PUBLIC_OK = { signedOut: 200, user: 200, otherUser: 200, admin: 200 };
const USER_OK = { signedOut: 401, user: 200, otherUser: 200, admin: 200 };
const ADMIN_OK = { signedOut: 401, user: 403, otherUser: 403, admin: 200 };
const url = (u: string) => ({ url: u });
const TABLE: Readonly<Record<string, readonly StaffRole[]>> = ADMIN_ROUTE_ROLES;

/** The roles the role table lets call an admin route (owner included), or undefined for other routes. */
export function allowedRolesFor(key: string): StaffRole[] | undefined {
  const allowed = TABLE[key];
  return allowed && [...new Set<StaffRole>([...allowed, "owner"])];
}

/** The exact status `role` gets from `key` (see RouteCase). */
export function expectedStatus(key: string, route: RouteCase, role: Role): number {
  if (role === "signedOut" || role === "user" || role === "otherUser" || role === "admin")
    return route.expect[role];
  const override = route.staff?.[role];
  const allowed = TABLE[key];
  if (allowed && !holdsAnyRole([role], allowed)) return 403;
  return override ?? route.expect.admin;
}

/** A Form 1099-INT of A's written straight to the tables (one run, one form, made once): the PDF route's target. */
async function taxFormOfA(w: World): Promise<string> {
  const rows = await w.t.database.query(
    `with run as (
       insert into tax_form_runs (tax_year, run_number, status, total, done, finished_at)
       values (2001, 1, 'done', 1, 1, now()) on conflict do nothing returning id),
     form as (
       insert into tax_forms (user_id, tax_year, sequence, run_id, interest_cents, payer_name, payer_tin,
         payer_street, payer_city, payer_state, payer_zip, payer_phone, recipient_name, recipient_first_name,
         recipient_last_name, recipient_street, recipient_city, recipient_state, recipient_zip, tin_last4,
         tin_ciphertext, account_number)
       select $1::uuid, 2001, 1, id, 1234, 'Pillar Bank, N.A.', '000000000', '1 Pillar Plaza', 'New York', 'NY',
         '10001', '2125550100', 'Ada Customer', 'Ada', 'Customer', '1 Main St', 'New York', 'NY', '10001', '1234',
         '', 'A' from run
       returning id)
     select id::text as id from form
     union all select id::text from tax_forms where user_id = $1::uuid and tax_year = 2001`,
    [w.a.user.id],
  );
  return (rows[0] as { id: string }).id;
}

/** A fresh account holding `roles`, for routes that change a target's roles. */
const staffVictim = (w: World, roles: StaffRole[]) => createVerifiedUser(w.t.database, { staffRoles: roles });

/** A passkey of A's written straight to the table: the target of rename/delete (only A may touch it). */
async function passkeyOfA(w: World): Promise<string> {
  // Exactly one, so repeated builds (CSRF and fuzz passes) never pile factors onto A.
  await w.t.database.db.delete(passkeys).where(eq(passkeys.userId, w.a.user.id));
  const [row] = await w.t.database.db
    .insert(passkeys)
    .values({
      userId: w.a.user.id,
      credentialId: `abuse-${crypto.randomUUID()}`,
      publicKey: "pQECAyYgASFYIA",
      name: "A's laptop",
    })
    .returning({ id: passkeys.id });
  return row!.id;
}

/** One of A's saved recipients, made again if a DELETE pass removed it: the target of rename/delete. */
async function recipientOfA(w: World): Promise<string> {
  const { db } = w.t.database;
  const [row] = await db
    .select({ id: savedRecipients.id })
    .from(savedRecipients)
    .where(eq(savedRecipients.userId, w.a.user.id))
    .limit(1);
  if (row) return row.id;
  const [made] = await db
    .insert(savedRecipients)
    .values({ userId: w.a.user.id, name: "Grace Hopper", address: ETH_ADDRESS })
    .returning({ id: savedRecipients.id });
  return made!.id;
}

/** Savings rate proposals built so far: each proposes for a day of its own. */
let rateProposals = 0;

/** Tomorrow in New York: a schedule's first date that no pass makes due. */
const tomorrow = () => addDays(limitDayOf(new Date()), 1);

/**
 * An open request for money between A and a third customer (never B, the attacker): A is the payer when `side`
 * is "payer", the requester otherwise (decision 037).
 */
async function moneyRequestWithA(w: World, side: "payer" | "requester"): Promise<string> {
  const other = await createVerifiedUser(w.t.database);
  const id = randomUUID();
  const [requester, payer] = side === "payer" ? [other.user.id, w.a.user.id] : [w.a.user.id, other.user.id];
  await w.t.database.query(
    `insert into money_requests (id, requester_id, payer_id, requester_tag, payer_tag, amount)
     values ($1, $2, $3, '$someone', '$someone_else', 500)`,
    [id, requester, payer],
  );
  return id;
}

/** A's block of a fresh requester (decision 037), written directly: the target of the unblock route. */
async function requestBlockOfA(w: World): Promise<string> {
  const requester = await createVerifiedUser(w.t.database);
  const id = randomUUID();
  await w.t.database.query(
    `insert into money_request_blocks (id, payer_id, requester_id, requester_tag) values ($1, $2, $3, '$someone')`,
    [id, w.a.user.id, requester.user.id],
  );
  return id;
}

/**
 * A new schedule of A's in `status`, its others ended first (A stays under the cap of open schedules): the
 * target of the schedule routes, fresh for each role so a pause or cancel never meets one already changed.
 */
async function scheduleOfA(w: World, status: "active" | "paused" = "active"): Promise<string> {
  const { db } = w.t.database;
  const recipientId = await recipientOfA(w);
  await db
    .update(transferSchedules)
    .set({ status: "cancelled" })
    .where(eq(transferSchedules.userId, w.a.user.id));
  const [row] = await db
    .insert(transferSchedules)
    .values({
      userId: w.a.user.id,
      recipientId,
      recipientName: "Grace Hopper",
      address: ETH_ADDRESS,
      amount: 1000,
      purpose: "Rent",
      cadence: "weekly",
      startOn: tomorrow(),
      nextRunOn: tomorrow(),
      status,
      requestKey: `abuse-${randomUUID()}`,
    })
    .returning({ id: transferSchedules.id });
  return row!.id;
}

/** A's fresh registration options answered by a software authenticator: the body only A may submit. */
async function registrationOfA(w: World) {
  // A with no factor yet, as a first enrolment: adding to an existing factor would need a step-up first.
  await w.t.database.db.delete(passkeys).where(eq(passkeys.userId, w.a.user.id));
  const cookie = await freshCookie(w, w.a);
  const res = await w.t.app.inject({
    method: "POST",
    url: "/api/auth/passkeys/registration-options",
    headers: { cookie },
  });
  return { name: "Abuse key", response: new SoftwareAuthenticator().register(res.json()).response };
}

/** A passwordless attempt by a credential no one registered. */
async function strangerAssertion(w: World) {
  const res = await w.t.app.inject({ method: "POST", url: "/api/auth/passkey-login/options" });
  const { challengeId, options } = res.json();
  const stranger = new SoftwareAuthenticator();
  stranger.register({ challenge: "x", rp: { id: "localhost" }, user: { id: "AAAA" } });
  return { challengeId, response: stranger.assert(options) };
}

/** A pending approval the catalogue's admin made (an unfreeze of a fresh frozen customer), written directly. */
async function approvalByAdmin(w: World): Promise<string> {
  const frozen = await frozenVictim(w);
  const [row] = await w.t.database.query<{ id: string }>(
    `insert into approvals (kind, user_id, target_key, payload, before, after, reason, maker_id, maker_role)
     values ('unfreeze', $1::uuid, $1::text, '{"op":"unfreeze"}', '{}', '{"frozenAt":null}', 'Spoke to the customer', $2, 'owner')
     returning id`,
    [frozen.user.id, w.admin.user.id],
  );
  return row!.id;
}

/** A case as written below: a contract's endpoint takes its access, input and usual statuses from its contract. */
type CaseRow = Omit<RouteCase, "access" | "expect"> & Partial<Pick<RouteCase, "access" | "expect">>;

const CASES: Record<string, CaseRow> = {
  // Health and the dev mailbox (404 in production) are public.
  "GET /healthz": { access: "public", build: () => url("/healthz"), expect: PUBLIC_OK },
  "GET /readyz": { access: "public", build: () => url("/readyz"), expect: PUBLIC_OK },
  "GET /dev/mailbox.json": { access: "dev", build: () => url("/dev/mailbox.json"), expect: PUBLIC_OK },
  "GET /dev/mailbox": { access: "dev", build: () => url("/dev/mailbox"), expect: PUBLIC_OK },
  // Operations: metrics are open outside production without METRICS_TOKEN (metrics.api.test.ts covers the
  // token and production's loopback rule); the OpenAPI document is public, like the web bundle.
  "GET /metrics": { access: "public", build: () => url("/metrics"), expect: PUBLIC_OK },
  "GET /api/docs": { access: "public", build: () => url("/api/docs"), expect: PUBLIC_OK },

  // Auth: public forms answer the same to everyone; a wrong code or password is 400/401, never a leak.
  "POST /api/auth/register": {
    build: () => ({ url: "/api/auth/register", payload: {} }),
    expect: { signedOut: 400, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/auth/verify-email": {
    build: (w) => ({ url: "/api/auth/verify-email", payload: { email: w.a.email, otp: "000000" } }),
    expect: { signedOut: 400, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/auth/resend-verification": {
    build: () => ({ url: "/api/auth/resend-verification", payload: { email: "nobody@example.com" } }),
    expect: PUBLIC_OK,
  },
  "POST /api/auth/login": {
    build: (w) => ({ url: "/api/auth/login", payload: { email: w.a.email, password: "Not-the-password-1" } }),
    expect: { signedOut: 401, user: 401, otherUser: 401, admin: 401 },
  },
  "POST /api/auth/forgot-password": {
    build: () => ({ url: "/api/auth/forgot-password", payload: { email: "nobody@example.com" } }),
    expect: PUBLIC_OK,
  },
  "POST /api/auth/reset-password": {
    build: (w) => ({
      url: "/api/auth/reset-password",
      payload: { email: w.a.email, resetCode: "000000", newPassword: TEST_PASSWORD },
    }),
    expect: { signedOut: 400, user: 400, otherUser: 400, admin: 400 },
  },
  // "This wasn't me" needs no sign-in; an unknown token is 400 for everyone and freezes nothing.
  "POST /api/account/freeze": {
    build: () => ({ url: "/api/account/freeze", payload: { token: "A".repeat(43) } }),
    expect: { signedOut: 400, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/account/freeze/check": {
    build: () => ({ url: "/api/account/freeze/check", payload: { token: "A".repeat(43) } }),
    expect: { signedOut: 400, user: 400, otherUser: 400, admin: 400 },
  },
  // "This wasn't me" for a block on crypto sends (decision 047): a token nobody was sent is refused alike.
  "POST /api/account/send-block/undo": {
    build: () => ({ url: "/api/account/send-block/undo", payload: { token: "A".repeat(43) } }),
    expect: { signedOut: 400, user: 400, otherUser: 400, admin: 400 },
  },
  // Account closure (decision 059). Closing A would end the walk's customer, so the well-formed request carries
  // no password: a customer is asked for it (403), staff cannot close their own login (403).
  "POST /api/account/close": {
    build: () => ({ url: "/api/account/close", payload: {} }),
    expect: { signedOut: 401, user: 403, otherUser: 403, admin: 403 },
  },
  "GET /api/logout": {
    access: "public",
    build: () => url("/api/logout"),
    expect: { signedOut: 302, user: 302, otherUser: 302, admin: 302 },
  },
  "POST /api/logout": {
    access: "public",
    build: () => url("/api/logout"),
    expect: { signedOut: 302, user: 302, otherUser: 302, admin: 302 },
  },

  // The signed-in user's own account.
  "POST /api/auth/change-password": {
    build: () => ({
      url: "/api/auth/change-password",
      payload: {
        currentPassword: TEST_PASSWORD,
        otpCode: "000000",
        newPassword: "Another-Quartz-92-river",
      },
    }),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
    refusalWrites: ["one_time_codes"],
  },
  "GET /api/auth/user": { access: "user", build: () => url("/api/auth/user"), expect: USER_OK },
  "PUT /api/user/phone": {
    // Everyone here already has a phone number, which is then locked.
    build: () => ({ url: "/api/user/phone", payload: { phoneNumber: "+1 212 555 0100" } }),
    expect: { signedOut: 401, user: 409, otherUser: 409, admin: 409 },
  },
  "DELETE /api/auth/sessions/:id": {
    // A's other session: A may end it; B, and even an admin here, get the same 404 as for a made-up id.
    build: async (w) => {
      const cookie = await freshCookie(w, w.a);
      const list = await w.t.app.inject({ method: "GET", url: "/api/auth/sessions", headers: { cookie } });
      const current = (list.json() as { id: string; current: boolean }[]).find((s) => s.current);
      return url(`/api/auth/sessions/${encodeURIComponent(current!.id)}`);
    },
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },

  // Second factors. Nobody in the world has one: the half-done-login routes answer 401 loginExpired without
  // the pending cookie, step-up has nothing to check (400), and turning off or regenerating is a 409.
  "POST /api/auth/login/verify": {
    build: () => ({
      url: "/api/auth/login/verify",
      payload: { secondFactor: { method: "totp", code: "000000" } },
    }),
    expect: { signedOut: 401, user: 401, otherUser: 401, admin: 401 },
  },
  "POST /api/auth/login/passkey-options": {
    build: () => url("/api/auth/login/passkey-options"),
    expect: { signedOut: 401, user: 401, otherUser: 401, admin: 401 },
  },
  "POST /api/auth/step-up": {
    build: () => ({
      url: "/api/auth/step-up",
      payload: { secondFactor: { method: "totp", code: "000000" } },
    }),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/auth/step-up/passkey-options": {
    build: () => url("/api/auth/step-up/passkey-options"),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  // Kept here, not left to its contract (which would ask it last): after the passkeys below, it needs a step-up.
  "POST /api/auth/totp/enroll": {
    build: () => url("/api/auth/totp/enroll"),
    expect: USER_OK,
  },
  "POST /api/auth/totp/confirm": {
    // A setup is pending for the caller, and the code is wrong.
    build: async (w, role) => {
      const who = actor(w, role);
      if (who) {
        const cookie = await freshCookie(w, who);
        await w.t.app.inject({ method: "POST", url: "/api/auth/totp/enroll", headers: { cookie } });
      }
      return { url: "/api/auth/totp/confirm", payload: { code: "000000" } };
    },
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/auth/totp/disable": {
    build: () => ({ url: "/api/auth/totp/disable", payload: { password: TEST_PASSWORD, code: "000000" } }),
    expect: { signedOut: 401, user: 409, otherUser: 409, admin: 409 },
  },
  "POST /api/auth/recovery-codes": {
    build: () => url("/api/auth/recovery-codes"),
    expect: { signedOut: 401, user: 409, otherUser: 409, admin: 409 },
  },

  // Chat (the user's own conversation; ids only on the admin side).
  "POST /api/chat/send": {
    build: () => ({ url: "/api/chat/send", payload: { message: "Is anyone there?" } }),
    expect: USER_OK,
  },

  // Pushed updates: a request that does not accept an event stream is refused (the stream itself is tested in
  // server/features/events/events.api.test.ts over a real socket), and the notification centre.
  "GET /api/events": {
    access: "user",
    input: { query: true },
    build: () => url("/api/events"),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/notifications/:id/read": {
    // Notification 1 is A's (the world's first KYC decision): B and staff sending A's id get 404.
    build: () => url("/api/notifications/1/read"),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "PUT /api/notifications/preferences": {
    build: () => ({
      url: "/api/notifications/preferences",
      payload: { kind: "money_in", inApp: true, email: false },
    }),
    expect: USER_OK,
  },

  // Onboarding. A and B are approved already, so a second application is refused (409), not created.
  "POST /api/kyc/create": {
    build: (w) => ({
      url: "/api/kyc/create",
      payload: {
        firstName: "Ada",
        lastName: "Lovelace",
        dateOfBirth: "1985-12-10",
        street: "1 Main St",
        city: "New York",
        state: "NY",
        zipCode: "10001",
        ssn: "123-45-6789",
        drivingLicenseFront: w.ids.spareObjectPath,
        drivingLicenseBack: w.ids.spareObjectPath,
      },
    }),
    // B names A's upload as their licence: "not found", exactly as for a made-up path. Staff never bank, so
    // every staff role is refused before the body is read (403 staffAccount; docs/architecture.md, Staff
    // roles).
    expect: { signedOut: 401, user: 409, otherUser: 400, admin: 403 },
  },
  "POST /api/kyc/upload-document": {
    // A and B are approved (409 before any document is looked at); staff never bank (403 staffAccount).
    // The same attack on an open application is in idor.api.test.ts.
    build: (w) => ({
      url: "/api/kyc/upload-document",
      payload: { documentType: "einDocument", documentUrl: w.ids.spareObjectPath },
    }),
    expect: { signedOut: 401, user: 409, otherUser: 409, admin: 403 },
  },
  "POST /api/objects/upload": { access: "user", build: () => url("/api/objects/upload"), expect: USER_OK },
  "PUT /api/objects/upload/:token": {
    access: "user",
    input: { params: true },
    // A's upload URL: B is refused with 403 (the token names its owner; nothing secret is revealed).
    build: (w, role) => ({
      url: role === "user" ? w.ids.uploadURL : w.ids.uploadURL,
      headers: { "content-type": "image/png" },
      payload: Buffer.from("not really a png"),
    }),
    expect: { signedOut: 401, user: 415, otherUser: 403, admin: 403 },
  },
  "GET /objects/*": {
    access: "user",
    input: { params: true },
    // The owner of the file and compliance (and owners) may read it (DOCUMENT_ROLES); anyone else, support and
    // finance included, gets the 404 of a path that does not exist.
    build: (w) => url(w.ids.objectPath),
    expect: { signedOut: 404, user: 200, otherUser: 404, admin: 200 },
    staff: { support: 404, finance: 404 },
  },

  // Money, the user's own.
  "GET /api/transactions": {
    build: () => url("/api/transactions?limit=5"),
    expect: USER_OK,
  },
  "GET /api/account/data-access": {
    build: () => url("/api/account/data-access?limit=5"),
    expect: USER_OK,
  },
  // Always the caller's own month: B gets B's statement, never A's (no id in the URL). The fixture admin was
  // written straight to the database and never opened a wallet, so it has no statement month at all.
  "GET /api/statements/:month.pdf": {
    build: () => url(`/api/statements/${monthOf(new Date())}.pdf`),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 404 },
  },
  // Form 1099-INT (decision 070): the list is always the caller's own; a form id of A's is a 404 to anyone else.
  "GET /api/statements/tax-forms/:id.pdf": {
    build: async (w) => url(`/api/statements/tax-forms/${await taxFormOfA(w)}.pdf`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  // A's own savings account: this month's interest is not paid yet, so A is told to wait (409); B and staff asking
  // for A's account get the 404 of an account that is not theirs (savings-statement.api.test.ts downloads one).
  "GET /api/statements/savings/:accountId/:month.pdf": {
    build: async (w) => {
      const [row] = await w.t.database.query<{ account_id: string }>(
        "select account_id from savings_accounts where user_id = $1 and closed_at is null",
        [w.a.user.id],
      );
      return url(`/api/statements/savings/${row!.account_id}/${monthOf(new Date())}.pdf`);
    },
    expect: { signedOut: 401, user: 409, otherUser: 404, admin: 404 },
  },
  "GET /api/transfers/:id/receipt.pdf": {
    build: (w) => url(`/api/transfers/${w.ids.transferId}/receipt.pdf`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "POST /api/transfer/request": {
    // More than anyone holds: the full validation runs, nothing is created. Admins never send money.
    build: () => ({
      url: "/api/transfer/request",
      payload: {
        amount: "9999999.00",
        recipientName: "Grace Hopper",
        purpose: "Rent",
        paymentMethod: "crypto",
        cryptoAddress: ETH_ADDRESS,
      },
    }),
    expect: { signedOut: 401, user: 422, otherUser: 422, admin: 403 },
  },
  "GET /api/transfers/:id": {
    // Only the sender sees it: B and the admin are told it does not exist (404, never 403).
    build: (w) => url(`/api/transfers/${w.ids.transferId}`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "POST /api/transfers/:id/cancel": {
    // A gets a fresh $1 transfer of its own to cancel, so every pass has a pending one; B and the admin aim at A's.
    build: async (w, role) => {
      if (role !== "user") return url(`/api/transfers/${w.ids.transferId}/cancel`);
      // A passkey on A would ask this fixture for a step-up: set A's passkeys aside while it sends, then put
      // the very same rows back, so A's factors are as the other routes left them.
      const { db } = w.t.database;
      const keys = await db.select().from(passkeys).where(eq(passkeys.userId, w.a.user.id));
      await db.delete(passkeys).where(eq(passkeys.userId, w.a.user.id));
      const fresh = await w.t.app.inject({
        method: "POST",
        url: "/api/transfer/request",
        headers: { cookie: await freshCookie(w, w.a) },
        payload: {
          amount: "1.00",
          recipientName: "Grace Hopper",
          purpose: "Rent",
          paymentMethod: "crypto",
          cryptoAddress: ETH_ADDRESS,
        },
      });
      if (keys.length > 0) await db.insert(passkeys).values(keys);
      if (fresh.statusCode !== 201) throw new Error(`fixture transfer: ${fresh.body}`);
      return url(
        `/api/transfers/${(fresh.json() as { transferRequest: { id: string } }).transferRequest.id}/cancel`,
      );
    },
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "POST /api/transfer/requests": {
    // A tag no one holds answers like the lookup; staff never ask for money.
    build: () => ({
      url: "/api/transfer/requests",
      payload: { tag: "$nobody_holds_this", amount: "1.00" },
    }),
    expect: { signedOut: 401, user: 404, otherUser: 404, admin: 403 },
  },
  "GET /api/transfer/requests": {
    build: () => url("/api/transfer/requests"),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "POST /api/transfer/requests/:id/pay": {
    // Without an Idempotency-Key every caller is refused before the payment's one call (decision 050), so nothing
    // is paid here and nothing is told of the request; whose request it is, and staff, are answered by the call
    // (money-requests.api.test.ts: another customer's, staff and a bad id are the same 404).
    build: async (w) => ({
      url: `/api/transfer/requests/${await moneyRequestWithA(w, "payer")}/pay`,
      payload: {},
    }),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/transfer/requests/:id/decline": {
    build: async (w) => url(`/api/transfer/requests/${await moneyRequestWithA(w, "payer")}/decline`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "POST /api/transfer/requests/:id/cancel": {
    build: async (w) => url(`/api/transfer/requests/${await moneyRequestWithA(w, "requester")}/cancel`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  // Blocking a requester (decision 037): only the payer of a request blocks from it, only the blocker unblocks.
  "POST /api/transfer/requests/:id/block": {
    build: async (w) => url(`/api/transfer/requests/${await moneyRequestWithA(w, "payer")}/block`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "GET /api/transfer/request-blocks": {
    build: () => url("/api/transfer/request-blocks"),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "DELETE /api/transfer/request-blocks/:id": {
    build: async (w) => url(`/api/transfer/request-blocks/${await requestBlockOfA(w)}`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  // The customer's own limits (decision 035): each customer's own row, no id to borrow; staff never bank.
  "PUT /api/transfer/self-limits/daily-limit": {
    // Back to the bank's limit alone when none is set: nothing changes.
    build: () => ({ url: "/api/transfer/self-limits/daily-limit", payload: { dailyLimit: null } }),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "PUT /api/transfer/self-limits/send-block": {
    // Switching off a block that is not on changes nothing (a block switched on here would outlive the pass).
    build: () => ({ url: "/api/transfer/self-limits/send-block", payload: { on: false } }),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  // Paying by $tag: a tag nobody holds answers the one neutral 404; a payment without its Idempotency-Key is
  // refused before anything is read. Staff never send.
  "GET /api/transfer/tag/:tag": {
    build: () => url("/api/transfer/tag/nobody_holds_this"),
    expect: { signedOut: 401, user: 404, otherUser: 404, admin: 403 },
  },
  "POST /api/transfer/tag-payments": {
    build: () => ({
      url: "/api/transfer/tag-payments",
      payload: { tag: "$nobody_holds_this", amount: "1.00" },
    }),
    // No Idempotency-Key: refused before the payment's one call, staff too (the call refuses staff with one:
    // pay-by-tag.api.test.ts).
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/transfer/passkey-options": {
    // No passkey enrolled: nothing to sign with. Admins never send money.
    build: () => ({
      url: "/api/transfer/passkey-options",
      payload: {
        amount: "10.00",
        recipientName: "Grace Hopper",
        cryptoAddress: ETH_ADDRESS,
        idempotencyKey: "k-1",
      },
    }),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 403 },
  },

  // Savings (decision 068): A and B each hold one (world.ts), so opening again is refused; a move or a closing
  // without its Idempotency-Key is refused before its one call, staff too (savings.api.test.ts and
  // close-savings.api.test.ts refuse staff with one). The closing keeps A's and B's accounts open for the cases
  // that need them, as the account closure's well-formed request does without its password.
  "POST /api/savings": {
    build: () => url("/api/savings"),
    expect: { signedOut: 401, user: 409, otherUser: 409, admin: 403 },
  },
  "DELETE /api/savings": {
    build: () => url("/api/savings"),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/savings/moves": {
    build: () => ({ url: "/api/savings/moves", payload: { direction: "to_savings", amount: "1.00" } }),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 400 },
  },
  "POST /api/savings/goals": {
    build: () => ({ url: "/api/savings/goals", payload: { name: "Rainy day", target: "100" } }),
    expect: { signedOut: 401, user: 201, otherUser: 201, admin: 403 },
  },

  // The customer's own deposit address (manual mode here: no chain configured); no id to borrow; staff never bank.
  "GET /api/deposits": {
    build: () => url("/api/deposits"),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  // Saved recipients: the customer's own; staff never send money, so they are refused outright.
  "GET /api/recipients": {
    build: () => url("/api/recipients"),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "GET /api/recipients/address-check": {
    build: () => url(`/api/recipients/address-check?address=${ETH_ADDRESS}`),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "POST /api/recipients": {
    // A new address every time, so repeated passes never meet the duplicate rule.
    build: () => ({
      url: "/api/recipients",
      payload: { name: "Ada Lovelace", address: `0x${randomBytes(20).toString("hex")}` },
    }),
    expect: { signedOut: 401, user: 201, otherUser: 201, admin: 403 },
  },
  "PATCH /api/recipients/:id": {
    build: async (w) => ({ url: `/api/recipients/${await recipientOfA(w)}`, payload: { name: "Grace H." } }),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 403 },
  },
  "DELETE /api/recipients/:id": {
    build: async (w) => url(`/api/recipients/${await recipientOfA(w)}`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 403 },
  },
  // Scheduled transfers (decision 036): A's own schedules and recipients; B sending A's ids is told they do not
  // exist; staff never send money, so they are refused outright.
  "GET /api/schedules": {
    build: () => url("/api/schedules"),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "GET /api/schedules/upcoming": {
    build: () => url("/api/schedules/upcoming"),
    expect: { signedOut: 401, user: 200, otherUser: 200, admin: 403 },
  },
  "POST /api/schedules": {
    build: async (w) => {
      const recipientId = await recipientOfA(w);
      await w.t.database.db
        .update(transferSchedules)
        .set({ status: "cancelled" })
        .where(eq(transferSchedules.userId, w.a.user.id));
      return {
        url: "/api/schedules",
        payload: {
          recipientId,
          amount: "10.00",
          cadence: "weekly",
          startOn: tomorrow(),
          requestKey: `abuse-${randomUUID()}`,
        },
      };
    },
    expect: { signedOut: 401, user: 201, otherUser: 404, admin: 403 },
  },
  "POST /api/schedules/passkey-options": {
    // No passkey enrolled: nothing to sign with.
    build: async (w) => ({
      url: "/api/schedules/passkey-options",
      payload: {
        recipientId: await recipientOfA(w),
        amount: "10.00",
        cadence: "weekly",
        startOn: tomorrow(),
        requestKey: "abuse-passkey",
      },
    }),
    expect: { signedOut: 401, user: 400, otherUser: 400, admin: 403 },
  },
  "PATCH /api/schedules/:id": {
    build: async (w) => ({ url: `/api/schedules/${await scheduleOfA(w)}`, payload: { amount: "12.00" } }),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 403 },
  },
  "POST /api/schedules/:id/pause": {
    build: async (w) => url(`/api/schedules/${await scheduleOfA(w)}/pause`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 403 },
  },
  "POST /api/schedules/:id/resume": {
    build: async (w) => url(`/api/schedules/${await scheduleOfA(w, "paused")}/resume`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 403 },
  },
  "POST /api/schedules/:id/cancel": {
    build: async (w) => url(`/api/schedules/${await scheduleOfA(w)}/cancel`),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 403 },
  },

  // The back office: 401 signed out, 403 for every customer, whatever the id.
  "GET /api/admin/chats": {
    build: () => url("/api/admin/chats?limit=5"),
    expect: ADMIN_OK,
  },
  "GET /api/admin/chats/:userId": {
    build: (w) => url(`/api/admin/chats/${w.a.user.id}`),
    expect: ADMIN_OK,
  },
  "GET /api/admin/chats/:userId/customer": {
    build: (w) => url(`/api/admin/chats/${w.a.user.id}/customer`),
    expect: ADMIN_OK,
  },
  "POST /api/admin/chats/:userId/reply": {
    build: (w) => ({
      url: `/api/admin/chats/${w.a.user.id}/reply`,
      payload: { message: "Hello from support" },
    }),
    expect: ADMIN_OK,
  },
  "GET /api/admin/kyc-applications": {
    build: () => url("/api/admin/kyc-applications?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "PUT /api/admin/kyc/:id/approve": {
    build: (w) => ({ url: `/api/admin/kyc/${w.ids.kycId}/approve`, payload: {} }),
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "PUT /api/admin/kyc/:id/reject": {
    build: (w) => ({ url: `/api/admin/kyc/${w.ids.kycId}/reject`, payload: { notes: "Blurry photo" } }),
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "PUT /api/admin/kyc/:id/reset": {
    build: (w) => ({ url: `/api/admin/kyc/${w.ids.kycId}/reset`, payload: {} }),
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "POST /api/admin/kyc/:id/ssn/reveal": {
    build: (w) => ({
      url: `/api/admin/kyc/${w.ids.kycId}/ssn/reveal`,
      payload: { reason: "Customer asked to confirm the SSN on file" },
    }),
    // The world's KYC row is a fixture whose SSN was never sealed with the app's key.
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "POST /api/admin/kyc/:id/dob/reveal": {
    build: (w) => ({
      url: `/api/admin/kyc/${w.ids.kycId}/dob/reveal`,
      payload: { reason: "Compare with a sanctions list entry" },
    }),
    // The world's application predates the question: null, and nothing to audit.
    expect: ADMIN_OK,
  },
  "GET /api/admin/compliance/cases": {
    build: () => url("/api/admin/compliance/cases?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "GET /api/admin/compliance/cases/:id": {
    build: () => url(`/api/admin/compliance/cases/${randomUUID()}`),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "PUT /api/admin/compliance/cases/:id/assignee": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/assignee`,
      payload: { assigneeId: null },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/compliance/cases/:id/comments": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/comments`,
      payload: { body: "No such case" },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "PUT /api/admin/compliance/cases/:id/narrative": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/narrative`,
      payload: { narrative: "No such case" },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/compliance/cases/:id/documents": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/documents`,
      payload: { documentUrl: `/objects/uploads/${randomUUID()}`, title: "No such case" },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/compliance/cases/:id/links": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/links`,
      payload: { customer: "nobody@example.com", note: "No such case" },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/compliance/cases/:id/decisions": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/decisions`,
      payload: { decision: "clear", note: "No such case" },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/approve": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/decisions/${randomUUID()}/approve`,
      payload: {},
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/reject": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/decisions/${randomUUID()}/reject`,
      payload: {},
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "GET /api/admin/compliance/cases/:id/report.json": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/report.json`,
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "GET /api/admin/compliance/cases/:id/report.pdf": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/report.pdf`,
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  // Reports a regulator asks for (decision 055).
  "GET /api/admin/compliance/cases/:id/sar": {
    build: () => url(`/api/admin/compliance/cases/${randomUUID()}/sar`),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "PUT /api/admin/compliance/cases/:id/sar": {
    build: () => ({
      url: `/api/admin/compliance/cases/${randomUUID()}/sar`,
      payload: { filingType: "initial", categories: ["identity_theft"], occupation: "Teacher" },
    }),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "GET /api/admin/compliance/cases/:id/report.xml": {
    build: () => url(`/api/admin/compliance/cases/${randomUUID()}/report.xml`),
    // No such case: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "GET /api/admin/compliance/ofac-reports": {
    build: () => url("/api/admin/compliance/ofac-reports?status=due"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/compliance/ofac-reports/:id/filed": {
    build: () => ({
      url: `/api/admin/compliance/ofac-reports/${randomUUID()}/filed`,
      payload: { reference: "OFAC-2026-1", filedOn: "2026-01-02" },
    }),
    // No such report: 404 to compliance and owners, 403 to the other roles.
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "GET /api/admin/compliance/ofac-reports/annual.csv": {
    build: () => url("/api/admin/compliance/ofac-reports/annual.csv?year=2025"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/compliance/lists": {
    build: () => ({ url: "/api/admin/compliance/lists", payload: uploadBody(listFiles()) }),
    expect: ADMIN_OK,
  },
  "POST /api/admin/compliance/search": {
    build: () => ({
      url: "/api/admin/compliance/search",
      payload: { name: "Ivan Petrov", dob: "1970-01-01", type: "person" },
    }),
    expect: ADMIN_OK,
  },
  "GET /api/admin/monitoring/alerts": {
    build: () => url("/api/admin/monitoring/alerts?rule=structuring&limit=5"),
    expect: ADMIN_OK,
  },
  "GET /api/admin/monitoring/alerts/:id": {
    build: () => url(`/api/admin/monitoring/alerts/${randomUUID()}`),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  // The Settlement tab (decision 038). The abuse world settles by hand (no chain): reconciling answers 409
  // manual_settlement, and no payout or report exists.
  "POST /api/admin/settlement/payouts/:id/speed-up": {
    build: () => url(`/api/admin/settlement/payouts/${randomUUID()}/speed-up`),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/settlement/payouts/:id/settled-outside": {
    build: () => ({
      url: `/api/admin/settlement/payouts/${randomUUID()}/settled-outside`,
      payload: { reason: "Paid from the treasury wallet" },
    }),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/settlement/reconciliations": {
    build: () => url("/api/admin/settlement/reconciliations"),
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "GET /api/admin/settlement/reconciliations/:id": {
    build: () => url(`/api/admin/settlement/reconciliations/${randomUUID()}`),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "GET /api/admin/settlement/reconciliations/:id/report.csv": {
    build: () => url(`/api/admin/settlement/reconciliations/${randomUUID()}/report.csv`),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge": {
    build: () => ({
      url: `/api/admin/settlement/reconciliations/${randomUUID()}/items/1/acknowledge`,
      payload: { reason: "Known treasury sweep" },
    }),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  // Form 1099-INT (decision 070): finance and owners. 2025 is closed and the world has no savings in it, so a run
  // starts (and stays queued: no jobs room here); starting again answers the same run.
  "GET /api/admin/tax-forms/runs": {
    build: () => url("/api/admin/tax-forms/runs?year=2025"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/tax-forms/runs": {
    build: () => ({ url: "/api/admin/tax-forms/runs", payload: { year: 2025 } }),
    expect: { signedOut: 401, user: 403, otherUser: 403, admin: 202 },
  },
  "GET /api/admin/tax-forms/pub1220": {
    build: () => url("/api/admin/tax-forms/pub1220?year=2025&file=original"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/settlement/deposits/:id/return": {
    build: () => ({
      url: `/api/admin/settlement/deposits/${randomUUID()}/return`,
      payload: { reason: "Below one cent: back to the sender" },
    }),
    expect: { ...ADMIN_OK, admin: 404 },
  },
  // Savings (decision 071): finance's figures and the rate history; an owner's proposal waits for a checker (202),
  // each build on a day of its own (one pending proposal per day).
  "POST /api/admin/savings/rates": {
    build: () => ({
      url: "/api/admin/savings/rates",
      payload: {
        apyBps: 275,
        effectiveOn: addDays(limitDayOf(new Date()), ++rateProposals),
        reason: "Market move",
      },
    }),
    expect: { ...ADMIN_OK, admin: 202 },
  },
  "GET /api/admin/audit": {
    build: (w) => url(`/api/admin/audit?customer=${w.a.user.id}&action=kyc.*&limit=5`),
    expect: ADMIN_OK,
  },
  "GET /api/admin/audit.csv": {
    build: (w) => url(`/api/admin/audit.csv?customer=${w.a.user.id}&from=2020-01-01`),
    expect: ADMIN_OK,
  },
  "GET /api/admin/account-requests": {
    build: () => url("/api/admin/account-requests?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "PUT /api/admin/account-requests/:id": {
    build: (w) => ({
      url: `/api/admin/account-requests/${w.ids.accountRequestId}`,
      payload: { status: "approved" },
    }),
    expect: ADMIN_OK,
  },
  "GET /api/admin/users": {
    build: () => url("/api/admin/users?limit=5"),
    expect: ADMIN_OK,
  },
  "GET /api/admin/users/:userId": {
    build: (w) => url(`/api/admin/users/${w.a.user.id}`),
    expect: ADMIN_OK,
  },
  "GET /api/admin/users/:userId/onboarding": {
    build: (w) => url(`/api/admin/users/${w.a.user.id}/onboarding`),
    expect: ADMIN_OK,
  },
  "DELETE /api/admin/users/:userId": {
    build: async (w) => url(`/api/admin/users/${(await victim(w)).user.id}`),
    expect: ADMIN_OK,
  },
  // Closing a fresh customer's account (no money, nothing open): compliance and owners (decision 059).
  "POST /api/admin/users/:userId/close": {
    build: async (w) => ({
      url: `/api/admin/users/${(await victim(w)).user.id}/close`,
      payload: { reason: "Customer asked to close" },
    }),
    expect: ADMIN_OK,
  },
  // A note on A's own limits: the only thing staff do about them (decision 035).
  "POST /api/admin/users/:userId/self-limit-notes": {
    build: (w) => ({
      url: `/api/admin/users/${w.a.user.id}/self-limit-notes`,
      payload: { note: "Customer asked about the cooldown" },
    }),
    expect: { ...ADMIN_OK, admin: 201 },
  },
  "POST /api/admin/users/:userId/unfreeze": {
    input: { params: true },
    build: async (w) => ({
      url: `/api/admin/users/${(await frozenVictim(w)).user.id}/unfreeze`,
      payload: { reason: "Spoke to the customer" },
    }),
    // Maker-checker: lifting a freeze waits for a second compliance member.
    expect: { ...ADMIN_OK, admin: 202 },
  },
  "GET /api/admin/users/:userId/self-limits": {
    build: async (w) => url(`/api/admin/users/${(await victim(w)).user.id}/self-limits`),
    expect: ADMIN_OK,
  },
  "POST /api/admin/users/:userId/lift-send-block": {
    build: async (w) => {
      const blocked = await victim(w);
      await w.t.database.query("select set_send_block($1::uuid, true, '24 hours', now())", [blocked.user.id]);
      return {
        url: `/api/admin/users/${blocked.user.id}/lift-send-block`,
        payload: { reason: "Customer asked", identityCheck: "Video call against the licence" },
      };
    },
    // Maker-checker: a second compliance member approves the lift (decision 047).
    expect: { ...ADMIN_OK, admin: 202 },
  },
  // Staff management (owner only): each build names a fresh account, so every pass grants or revokes for real.
  "GET /api/admin/staff": {
    build: () => url("/api/admin/staff?limit=5"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/staff": {
    build: async (w) => ({
      url: "/api/admin/staff",
      payload: { email: (await victim(w)).email, roles: ["support"] },
    }),
    expect: ADMIN_OK,
  },
  "POST /api/admin/staff/:userId/grant": {
    build: async (w) => ({
      url: `/api/admin/staff/${(await victim(w)).user.id}/grant`,
      payload: { roles: ["finance"] },
    }),
    expect: ADMIN_OK,
  },
  "POST /api/admin/staff/:userId/revoke": {
    build: async (w) => ({
      url: `/api/admin/staff/${(await staffVictim(w, ["support", "finance"])).user.id}/revoke`,
      payload: { roles: ["finance"] },
    }),
    expect: ADMIN_OK,
  },
  "POST /api/admin/test-email": {
    // Test e-mails go to staff addresses only (docs/architecture.md, Design notes): the owner's own.
    build: (w) => ({ url: "/api/admin/test-email", payload: { email: w.admin.email, firstName: "Ops" } }),
    expect: ADMIN_OK,
  },
  "POST /api/admin/send-payment-notification": {
    build: (w) => ({
      url: "/api/admin/send-payment-notification",
      payload: { email: w.admin.email, recipientName: "Ops", fromName: "Pillar", amount: "1.00" },
    }),
    expect: ADMIN_OK,
  },
  "GET /api/admin/transfer-requests": {
    build: () => url("/api/admin/transfer-requests?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "PUT /api/admin/transfer-requests/:id": {
    build: (w) => ({
      url: `/api/admin/transfer-requests/${w.ids.transferId}`,
      payload: { status: "processing" },
    }),
    expect: ADMIN_OK,
  },
  "GET /api/admin/incoming-payments": {
    build: () => url("/api/admin/incoming-payments?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/incoming-payments": {
    build: (w) => ({ url: "/api/admin/incoming-payments", payload: { userId: w.a.user.id, amount: "1.00" } }),
    expect: { ...ADMIN_OK, admin: 201 },
  },
  "PUT /api/admin/incoming-payments/:id": {
    build: (w) => ({
      url: `/api/admin/incoming-payments/${w.ids.incomingPaymentId}`,
      payload: { status: "completed", adminNotes: "checked" },
    }),
    // Completed payments are final, so even the admin's well-formed change is refused.
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "GET /api/admin/transactions": {
    build: () => url("/api/admin/transactions?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/transactions": {
    build: (w) => ({
      url: "/api/admin/transactions",
      payload: { userId: w.a.user.id, amount: "1.00", description: "Goodwill credit", status: "pending" },
    }),
    expect: { ...ADMIN_OK, admin: 201 },
  },
  "PUT /api/admin/transactions/:id": {
    build: (w) => ({
      url: `/api/admin/transactions/${w.ids.transactionId}`,
      payload: { status: "completed" },
    }),
    // A's first transaction came from an incoming payment, which only the payment desk may change.
    expect: { ...ADMIN_OK, admin: 409 },
  },
  "PUT /api/admin/users/:userId/balance": {
    build: async (w) => {
      // One pending adjustment per customer: each pass starts without one.
      await w.t.database.query("delete from approvals where user_id = $1 and status = 'pending'", [
        w.b.user.id,
      ]);
      return {
        url: `/api/admin/users/${w.b.user.id}/balance`,
        payload: { accountBalance: "5000.01", reason: "Correction" },
      };
    },
    // Maker-checker: every adjustment waits for a second finance member.
    expect: { ...ADMIN_OK, admin: 202 },
  },
  "GET /api/admin/approvals": {
    build: () => url("/api/admin/approvals?status=all&limit=5"),
    expect: ADMIN_OK,
  },
  "POST /api/admin/approvals/:id/approve": {
    // The admin made this one: approving your own request is refused (403 selfApproval).
    build: async (w) => ({ url: `/api/admin/approvals/${await approvalByAdmin(w)}/approve`, payload: {} }),
    expect: { ...ADMIN_OK, admin: 403 },
    // An unfreeze is compliance's to decide, and the compliance column is not its maker; finance may not (403).
    staff: { compliance: 200 },
  },
  "POST /api/admin/approvals/:id/reject": {
    build: async (w) => ({
      url: `/api/admin/approvals/${await approvalByAdmin(w)}/reject`,
      payload: { reason: "Not needed" },
    }),
    expect: { ...ADMIN_OK, admin: 403 },
    staff: { compliance: 200 },
  },
  "GET /api/admin/dashboard-content/:userId": {
    build: (w) => url(`/api/admin/dashboard-content/${w.a.user.id}`),
    expect: ADMIN_OK,
  },
  "PUT /api/admin/dashboard-content/:userId": {
    build: (w) => ({ url: `/api/admin/dashboard-content/${w.a.user.id}`, payload: { welcomeTitle: "Hi" } }),
    expect: ADMIN_OK,
  },
  // Passkeys, last: they leave A with a passkey, which step-up rules on the routes above must not see.
  // Kept here, before the passkey it leads to (asked last, A's passkey would make it need a step-up).
  "POST /api/auth/passkeys/registration-options": {
    build: () => url("/api/auth/passkeys/registration-options"),
    expect: USER_OK,
  },
  "POST /api/auth/passkeys": {
    // A's attestation answers A's challenge; B and the admin have no such challenge (400, nothing stored).
    build: async (w) => ({ url: "/api/auth/passkeys", payload: await registrationOfA(w) }),
    expect: { signedOut: 401, user: 200, otherUser: 400, admin: 400 },
  },
  "PATCH /api/auth/passkeys/:id": {
    build: async (w) => ({ url: `/api/auth/passkeys/${await passkeyOfA(w)}`, payload: { name: "Renamed" } }),
    expect: { signedOut: 401, user: 200, otherUser: 404, admin: 404 },
  },
  "DELETE /api/auth/passkeys/:id": {
    // Removing a factor needs a fresh step-up (passkeys.api.test.ts covers the success); B and staff: 404.
    build: async (w) => url(`/api/auth/passkeys/${await passkeyOfA(w)}`),
    expect: { signedOut: 401, user: 403, otherUser: 404, admin: 404 },
  },
  "POST /api/auth/passkey-login": {
    build: async (w) => ({ url: "/api/auth/passkey-login", payload: await strangerAssertion(w) }),
    expect: { signedOut: 401, user: 401, otherUser: 401, admin: 401 },
  },
};

const USUAL: Record<RouteCase["access"], Record<BaseRole, number>> = {
  public: PUBLIC_OK,
  user: USER_OK,
  admin: ADMIN_OK,
  dev: PUBLIC_OK,
};

/**
 * The catalogue: every case above, a contract's endpoint completed from its contract (its access, which parts
 * carry input, the usual statuses for its access), and an endpoint with no case at all (nothing to send but its
 * path) asked with its path alone. An endpoint that needs ids or a body and has no case fails here.
 */
function withContracts(cases: Record<string, CaseRow>): Record<string, RouteCase> {
  const keys = new Set([...Object.keys(cases), ...Object.keys(ENDPOINTS)]);
  return Object.fromEntries(
    [...keys].map((key) => {
      const row = cases[key];
      const endpoint: Endpoint | undefined = ENDPOINTS[key as ContractKey];
      if (!endpoint) {
        if (!row?.access || !row.expect)
          throw new Error(`${key}: a route without a contract needs access and expect`);
        return [key, row as RouteCase];
      }
      const access = isStaffAccess(endpoint.access) ? "admin" : endpoint.access;
      if (row?.access) throw new Error(`${key}: its access comes from its contract, not its case`);
      const input = { body: !!endpoint.body, query: !!endpoint.query, params: !!endpoint.params };
      if (!row && (input.body || input.params)) throw new Error(`${key} needs a case: ids or a body to send`);
      const [, path] = splitEndpointKey(key);
      const usual = { access, input, expect: USUAL[access] };
      return [key, row ? { ...usual, ...row } : { ...usual, build: () => url(path) }];
    }),
  );
}

export const CATALOGUE: Record<string, RouteCase> = withContracts(CASES);
