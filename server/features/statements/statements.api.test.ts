import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { queryRows } from "@/server/db/client";
import { computeStatementDigest, formatDigest } from "@/server/features/statements/statement-data";
import { monthOf } from "@/server/features/statements/statement-month";
import { findWallet, postEntry, systemAccountId } from "@/server/lib/ledger";
import {
  createApprovedCustomer,
  createFundedCustomer,
  ETH_ADDRESS,
  expectLedgerCleanAfterEach,
  fundCustomer,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpAdminUser } from "@/tests/support/users";

let a: SignedInUser;
let b: SignedInUser;
let completedTransferId: string;
let pendingTransferId: string;
const month = monthOf(new Date());
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pillar-statements-"));

/** pdftotext (poppler) reads the PDF exactly as a customer's viewer would; -layout keeps columns on one line. */
function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(outDir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  if (process.env.KEEP_PDF_DIR) fs.copyFileSync(file, path.join(process.env.KEEP_PDF_DIR, `${name}.pdf`));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const get = (who: SignedInUser, url: string) =>
  t.app.inject({ method: "GET", url, headers: { cookie: who.cookie } });

async function sendTransfer(who: SignedInUser, amount: number) {
  const res = await requestTransfer(t.app, who, {
    amount,
    purpose: "Rent for the flat",
    recipientRouting: "CRYPTO",
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().transferRequest.id as string;
}

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
beforeAll(async () => {
  a = await createApprovedCustomer(t.database);
  b = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, a.user.id, "1000.00");
  await fundCustomer(t, admin, a.user.id, "250.50");
  completedTransferId = await sendTransfer(a, 100);
  const settled = await t.app.inject({
    method: "PUT",
    url: `/api/admin/transfer-requests/${completedTransferId}`,
    headers: { cookie: admin.cookie },
    payload: { status: "completed", adminNotes: "checked" },
  });
  expect(settled.statusCode, settled.body).toBe(200);
  pendingTransferId = await sendTransfer(a, 40);
  await fundCustomer(t, admin, b.user.id, "77.77");
});
expectLedgerCleanAfterEach(t);

describe("monthly statements", () => {
  it("lists the months the account has existed in, newest first", async () => {
    const res = await get(a, "/api/statements");
    expect(res.statusCode).toBe(200);
    expect(res.json().months[0]).toBe(month);
  });

  it("prints the same balances, movements and fees as the ledger and the history, to the cent", async () => {
    const res = await get(a, `/api/statements/${month}.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="pillar-statement-${month}.pdf"`);
    const text = pdfText(res.rawPayload, "a-statement");

    const wallet = (await findWallet(t.database.db, a.user.id))!;
    expect(wallet.balance).toBe(100_000 + 25_050 - 10_000);
    expect(text).toMatch(/Opening balance\s+\$0\.00/);
    expect(text).toMatch(new RegExp(`Closing balance\\s+${escapeRegExp(formatMoney(wallet.balance))}`));
    expect(text).toMatch(/Money in\s+Money out/);

    const history = (await get(a, "/api/transactions")).json().items as Array<{
      amountCents: number;
      feeCents: number;
      status: string;
      type: string;
      description: string;
    }>;
    expect(history).toHaveLength(4);
    let running = 0;
    const completed = history.filter((row) => row.status === "completed").reverse();
    for (const row of completed) {
      const signed = row.type === "debit" ? -row.amountCents : row.amountCents;
      running += signed;
      const fee = row.feeCents ? `${escapeRegExp(formatMoney(row.feeCents))}\\s+` : "";
      // One line per movement: description, reference, fee, signed amount, running balance.
      expect(text).toMatch(
        new RegExp(
          `${escapeRegExp(row.description)}.*${fee}${escapeRegExp(signedMoney(signed))}\\s+${escapeRegExp(formatMoney(running))}`,
        ),
      );
    }
    expect(running).toBe(wallet.balance);
    expect(text).toMatch(/Total money in\s+\+\$1,250\.50/);
    expect(text).toMatch(/Total money out\s+\$2\.00\s+-\$100\.00/);
    expect(text).toContain(completedTransferId.slice(0, 8).toUpperCase());

    const pending = text.slice(text.indexOf("Pending (not yet in your balance)"));
    expect(pending).toMatch(/USDC transfer to Sam Lee\s+\w{8}\s+\$0\.80\s+-\$40\.00\s+Pending/);
    expect(pending).toContain(pendingTransferId.slice(0, 8).toUpperCase());
  });

  it("names the checking account by its last four digits and the bank's routing number, never the full number", async () => {
    const [account] = await t.database.query<{ account_number: string; routing_number: string }>(
      "select account_number, routing_number from account_requests where user_id = $1",
      [a.user.id],
    );
    const text = pdfText((await get(a, `/api/statements/${month}.pdf`)).rawPayload, "a-account");
    expect(text).toContain(
      `Checking account ••••${account!.account_number.slice(-4)} · Routing number ${account!.routing_number}`,
    );
    expect(text).not.toContain(account!.account_number);
  });

  it("prints a ledger digest that the CLI's recomputation and an independent one both match", async () => {
    const text = pdfText((await get(a, `/api/statements/${month}.pdf`)).rawPayload, "a-digest");
    const printed = /Ledger digest ([0-9A-F]{4}(?:-[0-9A-F]{4}){3})/.exec(text)?.[1];
    expect(printed).toBeDefined();
    expect((await computeStatementDigest(t.database.db, a.user.id, month)).digest).toBe(printed);

    const wallet = (await findWallet(t.database.db, a.user.id))!;
    const postingRows = await queryRows(
      t.database.db,
      sql`select id, amount from postings where account_id = ${wallet.id} order by id`,
      z.object({ id: z.union([z.string(), z.number()]), amount: z.union([z.string(), z.number()]) }),
    );
    const hash = createHash("sha256").update(`pillar-statement-v1\n${wallet.id}\n${month}\n0\n`);
    for (const row of postingRows) hash.update(`${row.id}:${row.amount}\n`);
    expect(formatDigest(hash.digest("hex"))).toBe(printed);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "npm run cli -- statement:verify accepts the printed digest and refuses another",
    async () => {
      const text = pdfText((await get(a, `/api/statements/${month}.pdf`)).rawPayload, "a-cli");
      const printed = /Ledger digest ([0-9A-F-]{19})/.exec(text)![1]!;
      const cli = (digest: string) =>
        spawnSync(
          process.execPath,
          ["--import", "tsx", "scripts/cli.ts", "statement:verify", a.user.id, month, digest],
          {
            cwd: path.resolve(import.meta.dirname, "../../.."),
            env: {
              ...process.env,
              DATABASE_URL: (t.database as { url?: string }).url,
              DATA_DIR: outDir,
              LOG_LEVEL: "silent",
            },
            encoding: "utf8",
          },
        );
      const good = cli(printed);
      expect(good.stdout).toContain("Statement verified: the digest matches the ledger.");
      expect(good.stdout).toMatch(/opening \$0\.00, closing \$1,150\.50/);
      expect(good.status).toBe(0);
      const bad = cli("0000-0000-0000-0000");
      expect(bad.stdout).toContain("Digest does NOT match the ledger.");
      expect(bad.status).toBe(1);
    },
  );

  it("never shows another customer's rows: B's statement has only B's money", async () => {
    const text = pdfText((await get(b, `/api/statements/${month}.pdf`)).rawPayload, "b-statement");
    expect(text).toMatch(/Closing balance\s+\$77\.77/);
    expect(text).not.toContain("1,000.00");
    expect(text).not.toContain("Sam Lee");
    expect(text).not.toContain(completedTransferId.slice(0, 8).toUpperCase());
  });

  it.each([
    ["2026-13", 400],
    ["26-01", 400],
    ["2026-1", 400],
    ["latest", 400],
    ["2999-01", 404],
    ["2000-01", 404],
  ])("refuses the month %s with %i JSON", async (bad, status) => {
    const res = await get(a, `/api/statements/${bad}.pdf`);
    expect(res.statusCode).toBe(status);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({
      message: expect.any(String),
      code: status === 400 ? "VALIDATION" : "NOT_FOUND",
    });
  });

  it("repeats the table header across pages for a 300-movement month and still closes to the cent", async () => {
    const c = await createFundedCustomer(t, admin, "5000.00");
    const wallet = (await findWallet(t.database.db, c.user.id))!;
    await t.database.db.transaction(async (tx) => {
      const adjustments = await systemAccountId(tx, "adjustments");
      for (let i = 1; i <= 300; i++) {
        const amount = i % 3 === 0 ? -(i * 7) : i * 13;
        await postEntry(tx, {
          kind: "adjustment",
          description: `Movement number ${i} with a rather long description that must be cut to fit the column`,
          referenceType: "user",
          referenceId: c.user.id,
          postings: [
            { accountId: wallet.id, amount },
            { accountId: adjustments, amount: -amount },
          ],
        });
      }
    });
    const res = await get(c, `/api/statements/${month}.pdf`);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload, "long-statement");
    const after = (await findWallet(t.database.db, c.user.id))!;
    expect(text).toMatch(new RegExp(`Closing balance\\s+${escapeRegExp(formatMoney(after.balance))}`));
    const pages = text.split("\f").filter((page) => page.trim());
    expect(pages.length).toBeGreaterThan(5);
    pages.forEach((page, index) => {
      expect(page).toContain(`Page ${index + 1}`);
      expect(page).toContain("Monthly statement");
    });
    const continued = pages.filter((page) => page.includes("Account activity (continued)")).length;
    expect(continued).toBeGreaterThanOrEqual(pages.length - 2);
    expect(text.match(/Movement number \d+/g)).toHaveLength(300);
  });
});

describe("transfer receipts", () => {
  it("gives the owner a receipt with reference, status, amount, fee, net and address", async () => {
    const res = await get(a, `/api/transfers/${completedTransferId}/receipt.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="pillar-receipt-/);
    const text = pdfText(res.rawPayload, "receipt");
    expect(text).toContain("Transfer receipt");
    expect(text).toMatch(new RegExp(`Reference\\s+${completedTransferId.slice(0, 8).toUpperCase()}`));
    expect(text).toMatch(/Status\s+Completed/);
    expect(text).toMatch(/Amount sent\s+\$100\.00/);
    expect(text).toMatch(/Amount\s+\$100\.00/);
    // One convention with the review, success and receipt screens: the fee is what comes off the amount.
    expect(text).toMatch(/Fee \(2%\)\s+-\$2\.00/);
    expect(text).toMatch(/Recipient gets\s+\$98\.00 USDC/);
    expect(text).toContain(ETH_ADDRESS);
    expect(text).toMatch(/Network\s+USDC on Ethereum/);
    expect(text).not.toContain("CRYPTO");
  });

  it("says a transfer cancelled by staff sent nothing, released its hold and charged no fee", async () => {
    const id = await sendTransfer(a, 50);
    const cancelled = await t.app.inject({
      method: "PUT",
      url: `/api/admin/transfer-requests/${id}`,
      headers: { cookie: admin.cookie },
      payload: { status: "cancelled", adminNotes: "customer asked" },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const res = await get(a, `/api/transfers/${id}/receipt.pdf`);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload, "receipt-cancelled");
    expect(text).toMatch(/Nothing sent\s+\$0\.00/);
    expect(text).toMatch(/Status\s+Cancelled/);
    expect(text).toMatch(/Amount\s+\$50\.00 \(not sent\)/);
    expect(text).toMatch(/Fee \(2%\)\s+\$0\.00 \(not charged\)/);
    expect(text).toMatch(/Recipient gets\s+Nothing sent/);
    expect(text).toContain("The $50.00 hold was released to the available balance and no fee was charged.");
    expect(text).not.toMatch(/Amount sent|\$1\.00|\$49\.00|CRYPTO/);
  });

  it("answers 404 JSON for another customer's transfer, an unknown id and a malformed one", async () => {
    for (const [who, id] of [
      [b, completedTransferId],
      [a, crypto.randomUUID()],
      [a, "not-a-uuid"],
    ] as const) {
      const res = await get(who, `/api/transfers/${id}/receipt.pdf`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "NOT_FOUND", message: "Transfer not found" });
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function signedMoney(cents: number): string {
  return cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents);
}
