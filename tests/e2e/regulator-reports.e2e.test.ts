import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  checkerRequest,
  randomSsn,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";

const browser = setUpBrowser();

describe("reports a regulator asks for", () => {
  it("a compliance member fills the SAR's FinCEN fields and downloads the XML; a block puts an OFAC report on Reports due", async () => {
    const maker = await openPage(browser);
    maker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(maker.page);
    const api = maker.context.request;
    const loaded = await api.post("/api/admin/compliance/lists", { data: uploadBody(listFiles()) });
    expect(loaded.status(), await loaded.text()).toBe(200);

    // A customer with a funded account sends money to a listed address: a case opens and holds it.
    const customer = await openPage(browser);
    customer.page.setDefaultTimeout(20_000);
    const lastName = `Sar${Date.now() % 100000}`;
    await signUpNewCustomer(customer.page, "Omar", lastName);
    const ssn = randomSsn(500);
    const applied = await applyThroughApi(customer.context.request, { firstName: "Omar", lastName, ssn });
    await approveAndFund(api, applied, "300.00");
    const sent = await customer.context.request.post("/api/transfer/request", {
      data: {
        amount: "40.50",
        recipientName: "Ana Ruiz",
        purpose: "Books",
        paymentMethod: "crypto",
        cryptoAddress: LISTED_ETH,
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    const transferId = (await sent.json()).transferRequest.id as string;

    // The member opens the case and records what FinCEN's form needs.
    await maker.page.goto("/admin/compliance");
    await maker.page.getByRole("link", { name: new RegExp(`Omar ${lastName}`) }).click();
    await maker.page.getByRole("heading", { name: `Omar ${lastName}`, level: 1 }).waitFor();
    const sar = maker.page.getByRole("region", { name: "Suspicious activity report" });
    // The SSN from the identity check, masked: its last four only.
    await sar.getByText(`***-**-${ssn.slice(-4)}`).waitFor();
    expect(await maker.page.getByText(ssn).count()).toBe(0);
    await sar.getByText("30 days from first detection", { exact: false }).waitFor();
    await sar.getByLabel("Money laundering: suspicious EFT or funds transfers").check();
    await sar.getByLabel("Other suspicious activity (describe)").check();
    await sar
      .getByLabel("Other suspicious activity", { exact: true })
      .fill("Payment to an OFAC-listed address");
    await sar.getByLabel("Occupation or type of business").fill("Pharmacist");
    await sar.getByLabel("ID document").selectOption({ label: "Passport" });
    await sar.getByLabel("ID number").fill("X12345678");
    await sar.getByLabel("Issuing country").fill("US");
    await sar.getByRole("button", { name: "Save report details" }).click();
    await sar.getByText("Report details saved").waitFor();
    // Masked once saved: the field is empty and says what is on file.
    expect(await sar.getByLabel("ID number").inputValue()).toBe("");
    expect(await sar.getByLabel("ID number").getAttribute("placeholder")).toBe("On file: ****5678");

    // The narrative starts from the who/what/when/where/why/how prompts.
    await maker.page.getByRole("button", { name: /who\/what\/when\/where\/why\/how template/ }).click();
    const narrative = maker.page.getByLabel("Narrative");
    expect(await narrative.inputValue()).toContain("Who: the subject(s)");
    await narrative.fill(
      `Who: Omar ${lastName}, a customer since this year.\nWhat: $40.50 to an address on OFAC's SDN list.`,
    );
    await maker.page.getByRole("button", { name: "Save narrative" }).click();
    await maker.page.getByText("Narrative saved").waitFor();
    await sar.getByRole("button", { name: "Save report details" }).click();
    await sar.getByText("Report details saved").waitFor();
    await expectAccessible(maker.page, "compliance case page with the SAR fields");
    await shots(maker.page, "compliance-case-sar");

    // The XML downloads, FinCEN's batch layout with the full SSN and ID number.
    const download = maker.page.waitForEvent("download");
    await sar.getByRole("link", { name: "Download FinCEN XML" }).click();
    const file = await (await download).path();
    const xml = fs.readFileSync(file, "utf8");
    expect(xml).toContain("<fc2:EFilingBatchXML");
    expect(xml).toContain("<fc2:FormTypeCode>SARX</fc2:FormTypeCode>");
    expect(xml).toContain(
      `<fc2:PartyIdentificationNumberText>${ssn.replace(/-/g, "")}</fc2:PartyIdentificationNumberText>`,
    );
    expect(xml).toContain("<fc2:PartyIdentificationNumberText>X12345678</fc2:PartyIdentificationNumberText>");
    expect(xml).toContain(`<fc2:RawEntityIndividualLastName>${lastName}</fc2:RawEntityIndividualLastName>`);
    expect(xml).toContain("<fc2:OccupationBusinessText>Pharmacist</fc2:OccupationBusinessText>");
    expect(xml).toContain("<fc2:SuspiciousActivitySubtypeID>805</fc2:SuspiciousActivitySubtypeID>");
    expect(xml).toContain("<fc2:TotalSuspiciousAmountText>41</fc2:TotalSuspiciousAmountText>");
    expect(xml).toContain("What: $40.50 to an address on OFAC's SDN list.");

    // Two members block the held transfer; the Reports due page lists its OFAC report.
    const proposed = await api.post(
      `${new URL(maker.page.url()).pathname.replace("/admin", "/api/admin")}/decisions`,
      {
        data: { decision: "block_transfer", transferId, note: "Blocked: payment to a listed person" },
      },
    );
    expect(proposed.status(), await proposed.text()).toBe(200);
    const pending = (await proposed.json()).case.decisions.find(
      (d: { status: string }) => d.status === "pending",
    );
    const checker = await checkerRequest();
    const approved = await checker.post(
      `${new URL(maker.page.url()).pathname.replace("/admin", "/api/admin")}/decisions/${pending.id}/approve`,
      { data: {} },
    );
    expect(approved.status(), await approved.text()).toBe(200);
    checker.dispose();

    await maker.page.goto("/admin/compliance");
    await maker.page.getByRole("link", { name: "Reports due" }).click();
    await maker.page.getByRole("heading", { name: "Reports due", level: 1 }).waitFor();
    const due = maker.page.getByRole("list", { name: "Reports due" });
    const item = due.getByRole("listitem").filter({ hasText: `Omar ${lastName}` });
    await item.getByText("Blocked property (31 CFR 501.603)").waitFor();
    await item.getByText("$40.50", { exact: false }).waitFor();
    await item.getByText(/Due in \d+ days/).waitFor();
    await maker.page.getByText("Annual report of blocked property").waitFor();
    await expectAccessible(maker.page, "reports due page");
    await shots(maker.page, "compliance-reports-due");

    // Marking it filed moves it off the due list.
    await item.getByLabel("OFAC reference").fill("OFAC-E2E-0001");
    await item.getByRole("button", { name: "Mark filed" }).click();
    // Only once the filing is answered: on a loaded machine the Filed view could otherwise read before it.
    await item.waitFor({ state: "detached" });
    await maker.page.getByRole("button", { name: "Filed", exact: true }).click();
    const filed = maker.page.getByRole("list", { name: "Reports filed" });
    await filed.getByText("Reference OFAC-E2E-0001", { exact: false }).waitFor();
  });
});
