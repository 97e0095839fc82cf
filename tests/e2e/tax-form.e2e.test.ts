import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { backdateSavings, runCli } from "@/tests/e2e/support/savings";
import { e2eServer } from "@/tests/e2e/support/server";

const browser = setUpBrowser();

// Form 1099-INT in the browser (decision 070): a customer whose savings earned $10.00 or more last
// year finds the form in Statements after operations' run, and its PDF says what the IRS is told (checked with
// pdftotext). PostgreSQL only: the run and the accrual are operations' CLI on the server's database.
describe("Form 1099-INT", () => {
  it("is in the customer's Statements after the year's run, its PDF with the interest and the TIN masked", async () => {
    const databaseUrl = e2eServer().databaseUrl;
    if (!databaseUrl) return;
    const { page, context, errors } = await openPage(browser);
    await signUpNewCustomer(page, "Tessa", "Taxpayer");
    const ssn = `4${String(10 + Math.floor(Math.random() * 89))}-55-${1000 + Math.floor(Math.random() * 8999)}`;
    const applied = await applyThroughApi(context.request, { firstName: "Tessa", lastName: "Taxpayer", ssn });
    const admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    await approveAndFund(admin.context.request, applied, "20000.00");

    const opened = await context.request.post("/api/savings");
    expect(opened.status(), await opened.text()).toBe(201);
    const moved = await context.request.post("/api/savings/moves", {
      data: { direction: "to_savings", amount: "20000" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(moved.status(), await moved.text()).toBe(201);
    const taxYear = new Date().getUTCFullYear() - 1;
    // Opened, and its money arrived, on 1 December of last year (New York): the whole of December earns.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const sinceDecember = Math.round((Date.parse(today) - Date.parse(`${taxYear}-12-01`)) / 86_400_000);
    await backdateSavings(databaseUrl, (await opened.json()).account.id, sinceDecember);
    runCli(databaseUrl, ["interest:accrue"]);
    // December's interest on $20,000 at 2.50%: about $41, paid on 31 December.
    const december = await (await context.request.get("/api/savings")).json();
    expect(december.account.earnedAllTime.cents).toBeGreaterThan(4000);
    console.info(
      runCli(databaseUrl, ["tax:1099", "--year", String(taxYear)])
        .trim()
        .split("\n")
        .at(-1),
    );

    await page.goto("/statements");
    const title = `Form 1099-INT ${taxYear}`;
    const link = page.getByRole("link", { name: `Download PDF of ${title}` });
    await link.waitFor();
    await expectAccessible(page, "/statements with a Form 1099-INT");
    await shots(page, "statements-1099-int");
    const forms = (await (await context.request.get("/api/statements/tax-forms")).json()).forms as {
      taxYear: number;
      interest: string;
    }[];
    expect(forms).toHaveLength(1);
    expect(forms[0]!.taxYear).toBe(taxYear);

    const pdf = await context.request.get((await link.getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pillar-e2e-1099-")), "1099-int.pdf");
    fs.writeFileSync(file, await pdf.body());
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("1099-INT");
    expect(text).toContain(String(taxYear));
    expect(text).toContain("Tessa Taxpayer");
    // The recipient's TIN masked but its last four; the whole number never printed.
    expect(text).toContain(`***-**-${ssn.slice(-4)}`);
    expect(text).not.toContain(ssn);
    expect(text).toContain(forms[0]!.interest);
    console.info(`e2e 1099-INT: ${forms[0]!.interest} of interest for ${taxYear}`);

    const ledger = await (await admin.context.request.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
    expect(errors).toEqual([]);
  }, 300_000);
});
