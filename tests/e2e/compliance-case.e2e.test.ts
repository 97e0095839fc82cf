import { describe, expect, inject, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  checkerRequest,
  creditCustomer,
  PASSWORD,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";

const browser = setUpBrowser();

describe("a compliance case", () => {
  it("a transfer to a listed address waits under review, a case opens, member A proposes clear, member B approves, the payout proceeds", async () => {
    // Compliance (the owner here) loads OFAC's files with the invented listed address.
    const maker = await openPage(browser);
    maker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(maker.page);
    const api = maker.context.request;
    const loaded = await api.post("/api/admin/compliance/lists", { data: uploadBody(listFiles()) });
    expect(loaded.status(), await loaded.text()).toBe(200);

    // A customer with an open, funded account sends money to the listed address: "under review", nothing more.
    const customer = await openPage(browser);
    customer.page.setDefaultTimeout(20_000);
    const lastName = `Case${Date.now() % 100000}`;
    const user = await signUpNewCustomer(customer.page, "Nadia", lastName);
    const applied = await applyThroughApi(customer.context.request, { firstName: "Nadia", lastName });
    await approveAndFund(api, applied, "300.00");
    const sent = await customer.context.request.post("/api/transfer/request", {
      data: {
        amount: "25.00",
        recipientName: "Ana Ruiz",
        purpose: "Books",
        paymentMethod: "crypto",
        cryptoAddress: LISTED_ETH,
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    const sentBody = await sent.json();
    expect(JSON.stringify(sentBody)).not.toMatch(/sanction|OFAC|PETROV/i);
    const transferId = sentBody.transferRequest.id as string;

    // Outgoing Pays says the row is held by compliance and offers no Approve (it would answer 409).
    await maker.page.goto("/admin");
    await maker.page.getByRole("tab", { name: "Outgoing Pays" }).click();
    await maker.page.getByLabel("Search transfer requests").fill(user.email);
    const pay = maker.page.getByRole("listitem").filter({ hasText: `Nadia ${lastName}` });
    await pay.getByText("Held by compliance").waitFor();
    await pay.getByText("Compliance decides it on the case").waitFor();
    expect(await pay.getByRole("button", { name: /^Approve transfer request/ }).count()).toBe(0);
    await expectAccessible(maker.page, "Outgoing Pays with a transfer held by compliance");
    await shots(maker.page, "outgoing-pays-held");

    // Member A finds the case in the queue with its report clock, comments and proposes clearing it.
    await maker.page.goto("/admin/compliance");
    // The queue says what a case is: a customer can have several (a decided case stays, a new hit opens another).
    await maker.page.getByText("so a customer can have several", { exact: false }).waitFor();
    expect(await maker.page.getByText("One per customer").count()).toBe(0);
    const row = maker.page.getByRole("link", { name: new RegExp(`Nadia ${lastName}`) });
    await row.getByText(/Report due in (29|30) days/).waitFor();
    await row.click();
    await maker.page.getByRole("heading", { name: `Nadia ${lastName}`, level: 1 }).waitFor();
    await maker.page.getByText("PETROV, Ivan Sergeyevich", { exact: false }).waitFor();
    await maker.page
      .getByLabel("Add a comment")
      .fill("Exchange deposit address confirmed with the exchange.");
    await maker.page.getByRole("button", { name: "Add comment" }).click();
    await maker.page.getByText("Exchange deposit address confirmed with the exchange.").first().waitFor();
    // The held transfer itself, not only a count.
    const held = maker.page.getByRole("list", { name: "Held transfers" });
    await held.getByText("−$25.00").waitFor();
    await held.getByText(LISTED_ETH).waitFor();
    await held.getByText("to Ana Ruiz", { exact: false }).first().waitFor();
    // No decision is chosen for the member: proposing without one says so.
    const propose = maker.page.getByLabel("Propose");
    expect(await propose.inputValue()).toBe("");
    await maker.page.getByLabel("Why").fill("Not yet");
    await maker.page.getByRole("button", { name: "Propose decision" }).click();
    await maker.page.getByText("Choose a decision", { exact: true }).last().waitFor();
    await propose.selectOption({ label: "Clear (no report)" });
    await maker.page
      .getByLabel("Why")
      .fill("False positive: the address is the customer's own exchange account");
    await maker.page.getByRole("button", { name: "Propose decision" }).click();
    await maker.page.getByText(/awaiting approval/).waitFor();
    // The maker cannot check their own decision: no approve button, a plain sentence instead.
    await maker.page.getByText("You proposed this decision", { exact: false }).waitFor();
    expect(await maker.page.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
    const caseUrl = new URL(maker.page.url()).pathname;
    await expectAccessible(maker.page, "compliance case page");
    await shots(maker.page, "compliance-case");

    // Still held: releasing it now is refused.
    const early = await api.put(`/api/admin/transfer-requests/${transferId}`, {
      data: { status: "approved" },
    });
    expect(early.status()).toBe(409);

    // Member B approves in the browser.
    (await checkerRequest()).dispose();
    const checker = await openPage(browser);
    checker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(checker.page, PASSWORD, inject("checkerEmail"));
    await checker.page.goto(caseUrl);
    await checker.page.getByRole("button", { name: "Approve: Clear (no report)" }).click();
    await checker.page.getByText("Decision approved and applied").waitFor();
    await checker.page.getByText("Cleared", { exact: true }).first().waitFor();
    await shots(checker.page, "compliance-case-cleared");

    // The payout proceeds.
    const released = await api.put(`/api/admin/transfer-requests/${transferId}`, {
      data: { status: "approved" },
    });
    expect(released.status(), await released.text()).toBe(200);
    expect((await released.json()).status).toBe("completed");

    // The customer's data-access view: reviewed, nothing of the case.
    const access = await customer.context.request.get("/api/account/data-access");
    const text = JSON.stringify(await access.json());
    expect(text).toContain("Reviewed your account");
    expect(text).not.toMatch(/exchange|clear|case|PETROV/i);
    expect(user.email).toBeTruthy();
  });

  it("a restricted customer's restriction is lifted by two members in the browser, and money can leave again", async () => {
    const maker = await openPage(browser);
    maker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(maker.page);
    const api = maker.context.request;
    const loaded = await api.post("/api/admin/compliance/lists", { data: uploadBody(listFiles()) });
    expect(loaded.status(), await loaded.text()).toBe(200);

    const customer = await openPage(browser);
    customer.page.setDefaultTimeout(20_000);
    const lastName = `Lift${Date.now() % 100000}`;
    await signUpNewCustomer(customer.page, "Omar", lastName);
    const applied = await applyThroughApi(customer.context.request, { firstName: "Omar", lastName });
    await approveAndFund(api, applied, "200.00");
    const sent = await customer.context.request.post("/api/transfer/request", {
      data: {
        amount: "15.00",
        recipientName: "Ana Ruiz",
        purpose: "Books",
        paymentMethod: "crypto",
        cryptoAddress: LISTED_ETH,
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    const transferId = (await sent.json()).transferRequest.id as string;

    // Member A proposes restricting; member B approves it in the browser.
    await maker.page.goto("/admin/compliance");
    await maker.page.getByRole("link", { name: new RegExp(`Omar ${lastName}`) }).click();
    await maker.page.getByRole("heading", { name: `Omar ${lastName}`, level: 1 }).waitFor();
    const caseUrl = new URL(maker.page.url()).pathname;
    await maker.page.getByLabel("Propose").selectOption({ label: "Restrict (no money out)" });
    await maker.page.getByLabel("Why").fill("Address confirmed as the listed person's");
    await maker.page.getByRole("button", { name: "Propose decision" }).click();
    await maker.page.getByText(/awaiting approval/).waitFor();

    (await checkerRequest()).dispose();
    const checker = await openPage(browser);
    checker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(checker.page, PASSWORD, inject("checkerEmail"));
    await checker.page.goto(caseUrl);
    await checker.page.getByRole("button", { name: "Approve: Restrict (no money out)" }).click();
    await checker.page.getByText("Restricted", { exact: true }).first().waitFor();
    const restricted = await customer.context.request.get("/api/account/summary");
    expect((await restricted.json()).canSendMoney).toBe(false);

    // The transfer to the listed address is blocked, not returned: member A proposes it from its row, B approves.
    await maker.page.reload();
    await maker.page.getByText("The customer cannot send money.", { exact: false }).waitFor();
    await maker.page.getByRole("button", { name: /^Decide this transfer/ }).click();
    await maker.page.getByLabel("Propose").selectOption({ value: "block_transfer" });
    expect(await maker.page.getByLabel("Transfer", { exact: true }).inputValue()).toBe(transferId);
    // The form with its transfer fits a phone: no sideways scroll at 375 px.
    await maker.page.setViewportSize({ width: 375, height: 812 });
    expect(await maker.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shots(maker.page, "compliance-case-block-form");
    await maker.page.setViewportSize({ width: 1280, height: 800 });
    await maker.page.getByLabel("Why").fill("Payment to the listed person: blocked property");
    await maker.page.getByRole("button", { name: "Propose decision" }).click();
    await maker.page.getByText(/Block a held transfer .* · awaiting approval/).waitFor();
    await checker.page.reload();
    await checker.page.getByRole("button", { name: /^Approve: Block a held transfer/ }).click();
    await checker.page.getByText(/^OFAC report due /).waitFor();
    await checker.page.getByText("No transfer is held.").waitFor();
    await expectAccessible(checker.page, "compliance case with a blocked transfer");
    await shots(checker.page, "compliance-case-blocked");
    const receipt = await (await customer.context.request.get(`/api/transfers/${transferId}`)).json();
    expect(receipt).toMatchObject({ status: "blocked", canCancel: false });
    // The customer reads it neutrally: not sent, no reason, no Cancel.
    await customer.page.goto(`/transfers/${transferId}`);
    await customer.page.getByText("Not sent", { exact: true }).first().waitFor();
    expect(await customer.page.getByRole("button", { name: /Cancel/ }).count()).toBe(0);
    expect(await customer.page.locator("main").innerText()).not.toMatch(/block|sanction|OFAC|compliance/i);
    await expectAccessible(customer.page, "receipt of a blocked transfer");
    await shots(customer.page, "receipt-blocked");

    // Later, member A proposes lifting the restriction.
    await maker.page.reload();
    await maker.page.getByLabel("Propose").selectOption({ label: "Lift the restriction" });
    await maker.page.getByLabel("Why").fill("The listed person's control of the address was disproved");
    await maker.page.getByRole("button", { name: "Propose decision" }).click();
    await maker.page.getByText("Lift the restriction · awaiting approval").waitFor();
    expect(await maker.page.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
    await expectAccessible(maker.page, "restricted compliance case with a lift proposed");
    await shots(maker.page, "compliance-case-lift-proposed");

    await checker.page.reload();
    await checker.page.getByRole("button", { name: "Approve: Lift the restriction" }).click();
    await checker.page.getByText("Decision approved and applied").waitFor();
    await checker.page.getByText("Cleared", { exact: true }).first().waitFor();
    const lifted = await customer.context.request.get("/api/account/summary");
    expect((await lifted.json()).canSendMoney).toBe(true);
    const access = await customer.context.request.get("/api/account/data-access");
    expect(JSON.stringify(await access.json())).not.toMatch(/lift|restrict|PETROV/i);
  });

  it("credits just under the approval threshold within a week raise a structuring alert that joins the customer's case", async () => {
    const staff = await openPage(browser);
    staff.page.setDefaultTimeout(20_000);
    await signInAsAdmin(staff.page);
    const api = staff.context.request;

    // A customer whose money arrives as three payments between $900 and $999.99 (APPROVAL_THRESHOLD is $1,000)
    // within the rule's seven days: the third one is the pattern.
    const customer = await openPage(browser);
    customer.page.setDefaultTimeout(20_000);
    const lastName = `Split${Date.now() % 100000}`;
    await signUpNewCustomer(customer.page, "Lena", lastName);
    const applied = await applyThroughApi(customer.context.request, { firstName: "Lena", lastName });
    await approveAndFund(api, applied, "950.00");
    await creditCustomer(api, applied.kyc.userId, "975.00", "Consulting");
    const alertsOf = async () =>
      (await (await api.get("/api/admin/monitoring/alerts?limit=100")).json()).items.filter(
        (a: { customer: { id: string } | null }) => a.customer?.id === applied.kyc.userId,
      );
    expect(await alertsOf()).toEqual([]);
    await creditCustomer(api, applied.kyc.userId, "990.00", "Consulting");
    const [alert] = await alertsOf();
    expect(alert).toMatchObject({ rule: "structuring", blocking: false, eventKind: "credit" });

    // Compliance sees it on the alerts page with what the rule saw, and follows it to the customer's case.
    await staff.page.goto("/admin/compliance");
    await staff.page.getByRole("link", { name: "Monitoring alerts" }).click();
    await staff.page.getByRole("heading", { name: "Monitoring alerts", level: 1 }).waitFor();
    const row = staff.page
      .getByRole("list", { name: "Alerts" })
      .getByRole("listitem")
      .filter({ hasText: `Lena ${lastName}` });
    await row.getByText("Structuring just under a limit").waitFor();
    // The evidence in the SAR's words (jsonb orders the keys): the three credits and the limit they stay under.
    await row
      .getByText(/^3 \(credit \$950\.00 on [\d-]+, credit \$975\.00 on [\d-]+, credit \$990\.00/)
      .waitFor();
    await row.getByText("$1,000.00", { exact: true }).waitFor();
    await expectAccessible(staff.page, "monitoring alerts page");
    await shots(staff.page, "monitoring-alerts");
    await row.getByRole("link", { name: `Open Lena ${lastName}'s case` }).click();
    await staff.page.getByRole("heading", { name: `Lena ${lastName}`, level: 1 }).waitFor();
    expect(staff.page.url()).toContain(`/admin/compliance/cases/${alert.caseId}`);
    const onCase = staff.page.getByRole("list", { name: "Monitoring alerts" });
    await onCase.getByText("Structuring just under a limit").waitFor();
    await expectAccessible(staff.page, "compliance case opened by an alert");
    await shots(staff.page, "compliance-case-alert");

    // The case is the customer's one open case in the queue; the case's alerts page lists this alert.
    await staff.page.getByRole("link", { name: "This case's alerts on the alerts page" }).click();
    await staff.page.getByRole("heading", { name: "Alerts on this case" }).waitFor();
    expect(await staff.page.getByRole("list", { name: "Alerts" }).getByRole("listitem").count()).toBe(1);
    await staff.page.goto("/admin/compliance");
    const queued = staff.page.getByRole("link", { name: new RegExp(`Lena ${lastName}`) });
    await queued.getByText(/0 hits · 1 alert · 0 held/).waitFor();
    await shots(staff.page, "compliance-desk");

    // Not a blocking rule: the money stays the customer's to send, and the customer sees nothing of it.
    const summary = await (await customer.context.request.get("/api/account/summary")).json();
    expect(summary.canSendMoney).toBe(true);
    const access = await customer.context.request.get("/api/account/data-access");
    expect(JSON.stringify(await access.json())).not.toMatch(/structuring|monitoring/i);

    const ledger = await (await api.get("/api/admin/ledger/verify")).json();
    expect(ledger).toMatchObject({ ok: true, problems: [] });
  });
});
