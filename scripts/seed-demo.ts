// `npm run cli -- seed:demo`: what a new developer needs to click through, made through the app's own routes
// (sign-up, e-mail code, KYC with uploads, the admin's decisions, credits, a chat message), so the data obeys
// every rule the product enforces and the ledger balances.
import { inArray } from "drizzle-orm";
import type { App } from "@/server/app";
import type { Config } from "@/server/config";
import type { Database } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { grantStaffRoles } from "@/server/features/staff/grant-staff-roles";

/** Passes the common-password check; printed at the end, never used outside a development database. */
export const DEMO_PASSWORD = "Harbor-Quartz-Demo-2026";

/** Each with a number of its own, from the 555-01XX range kept for fiction. */
export const DEMO_ACCOUNTS = {
  admin: {
    email: "demo-admin@pillar.test",
    firstName: "Ada",
    lastName: "Admin",
    pillarTag: "demo_admin",
    phoneNumber: "+1 212 555 0101",
  },
  customer: {
    email: "demo-customer@pillar.test",
    firstName: "Maya",
    lastName: "Chen",
    pillarTag: "demo_maya",
    phoneNumber: "+1 415 555 0132",
  },
  pending: {
    email: "demo-pending@pillar.test",
    firstName: "Leo",
    lastName: "Park",
    pillarTag: "demo_leo",
    phoneNumber: "+1 312 555 0178",
  },
} as const;

/** A 1×1 PNG: enough for the upload checks, which read the file's signature. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

interface Reply {
  status: number;
  body: unknown;
  setCookie: string[];
}

function client(app: App) {
  return async function call(
    method: "GET" | "POST" | "PUT",
    url: string,
    { body, cookie, raw }: { body?: unknown; cookie?: string; raw?: { payload: Buffer; type: string } } = {},
  ): Promise<Reply> {
    const res = await app.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(raw
          ? { "content-type": raw.type }
          : body !== undefined
            ? { "content-type": "application/json" }
            : {}),
      },
      payload: raw ? raw.payload : body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
    const text = res.body;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (an upload's empty answer)
    }
    if (res.statusCode >= 400) throw new Error(`${method} ${url} → ${res.statusCode} ${text}`);
    return { status: res.statusCode, body: parsed, setCookie };
  };
}

/** Seeds the three demo accounts; refuses production and a database that already holds any of them. */
export async function seedDemo(config: Config, database: Database): Promise<string[]> {
  if (config.isProduction) throw new Error("seed:demo refuses to run with NODE_ENV=production");
  const emails = Object.values(DEMO_ACCOUNTS).map((a) => a.email);
  const existing = await database.db
    .select({ email: users.email })
    .from(users)
    .where(inArray(users.email, emails));
  if (existing.length > 0) {
    return [
      `Demo data is already here (${existing.map((u) => u.email).join(", ")}); nothing changed.`,
      "Use a fresh database (another DATA_DIR, or a new DATABASE_URL) to seed again.",
    ];
  }

  const { buildApp } = await import("@/server/app");
  // The seeding owner acts before anyone could enrol its second factor; the demo admin is asked to set one up
  // at its first sign-in in the browser, as every staff member is.
  const app = await buildApp(
    { config: { ...config, adminRequire2fa: false }, database },
    { logger: false, mailWorker: false },
  );
  try {
    const call = client(app);

    const signUp = async (account: (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS]) => {
      await call("POST", "/api/auth/register", {
        body: { ...account, password: DEMO_PASSWORD },
      });
      const mailbox = (await call("GET", "/dev/mailbox.json")).body as { to: string; text: string }[];
      const code = mailbox.find((m) => m.to === account.email)?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`No verification code was mailed to ${account.email}`);
      await call("POST", "/api/auth/verify-email", {
        body: { email: account.email, otp: code, password: DEMO_PASSWORD },
      });
    };
    const signIn = async (email: string) => {
      const { setCookie } = await call("POST", "/api/auth/login", {
        body: { email, password: DEMO_PASSWORD },
      });
      const session = setCookie.find((c) => /^(__Host-)?sid=/.test(c));
      if (!session) throw new Error(`Signing in ${email} set no session cookie`);
      return session.split(";")[0]!;
    };
    const apply = async (cookie: string, account: { firstName: string; lastName: string }, ssn: string) => {
      const upload = async () => {
        const { uploadURL, objectPath } = (await call("POST", "/api/objects/upload", { cookie })).body as {
          uploadURL: string;
          objectPath: string;
        };
        await call("PUT", new URL(uploadURL, "http://localhost").pathname, {
          cookie,
          raw: { payload: PNG, type: "image/png" },
        });
        return objectPath;
      };
      return (
        await call("POST", "/api/kyc/create", {
          cookie,
          body: {
            accountType: "personal",
            firstName: account.firstName,
            lastName: account.lastName,
            dateOfBirth: "1988-04-02",
            street: "5 Wall St",
            city: "New York",
            state: "NY",
            zipCode: "10005",
            ssn,
            drivingLicenseFront: await upload(),
            drivingLicenseBack: await upload(),
          },
        })
      ).body as { kyc: { id: string; userId: string }; accountRequest: { id: string } };
    };

    for (const account of Object.values(DEMO_ACCOUNTS)) await signUp(account);
    await grantStaffRoles(database.db, DEMO_ACCOUNTS.admin.email, ["owner"]);
    const admin = await signIn(DEMO_ACCOUNTS.admin.email);

    const maya = await signIn(DEMO_ACCOUNTS.customer.email);
    const { kyc, accountRequest } = await apply(maya, DEMO_ACCOUNTS.customer, "412-34-5678");
    await call("PUT", `/api/admin/kyc/${kyc.id}/approve`, {
      cookie: admin,
      body: { notes: "Demo: documents match" },
    });
    await call("PUT", `/api/admin/account-requests/${accountRequest.id}`, {
      cookie: admin,
      body: { status: "approved" },
    });
    // Together at or below the approval threshold (it holds over 24 hours per maker and per customer,
    // decision 017), so each posts without a second staff member.
    for (const [amount, description] of [
      ["520.00", "Payroll — Northwind Traders"],
      ["125.40", "Refund — City Utilities"],
      ["300.00", "Transfer from savings"],
    ] as const) {
      await call("POST", "/api/admin/incoming-payments", {
        cookie: admin,
        body: { userId: kyc.userId, amount, description, status: "completed" },
      });
    }
    await call("POST", "/api/chat/send", {
      cookie: maya,
      body: { message: "Hi! When does my card arrive?" },
    });

    const leo = await signIn(DEMO_ACCOUNTS.pending.email);
    await apply(leo, DEMO_ACCOUNTS.pending, "523-45-6789");

    return [
      `Demo data created (password for every account: ${DEMO_PASSWORD}):`,
      `  ${DEMO_ACCOUNTS.admin.email}     owner: every back-office tab (asks for a second factor first)`,
      `  ${DEMO_ACCOUNTS.customer.email}  approved checking account, $945.40 in three credits, a support chat`,
      `  ${DEMO_ACCOUNTS.pending.email}   a KYC application waiting for review`,
    ];
  } finally {
    await app.close();
  }
}
