import { describe, expect, inject, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  checkerRequest,
  PASSWORD,
  shots,
  signInAsAdmin,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";
import { listFiles, uploadBody } from "@/tests/support/ofac-files";

const browser = setUpBrowser();

// Decision 053 in the browser: a KYC hit (the listed name with the listed date of birth) shows its score's
// parts on the case, member A proposes clear, member B approves; the list search finds the same entry with
// its parts.
describe("screening where it is fair", () => {
  it("a compliance member sees a KYC hit with its score's parts, proposes clear, a second member approves; the list search shows the parts too", async () => {
    const maker = await openPage(browser);
    maker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(maker.page);
    const api = maker.context.request;
    const loaded = await api.post("/api/admin/compliance/lists", { data: uploadBody(listFiles()) });
    expect(loaded.status(), await loaded.text()).toBe(200);

    // Signed up under the listed name: nothing is filed (no date of birth). The KYC, with the listed date, is hit.
    const customer = await openPage(browser);
    customer.page.setDefaultTimeout(20_000);
    const user = await signUpNewCustomer(customer.page, "Omar", "Khalil");
    const beforeKyc = await api.get("/api/admin/compliance/cases?status=all&limit=200");
    expect(JSON.stringify(await beforeKyc.json())).not.toContain(user.email);
    await applyThroughApi(customer.context.request, {
      firstName: "Omar Farouk",
      lastName: "Khalil",
      dateOfBirth: "1980-02-02",
    });

    await maker.page.goto("/admin/compliance");
    await maker.page
      .getByRole("link", { name: /Omar Khalil/ })
      .first()
      .click();
    await maker.page.getByRole("heading", { name: "Omar Khalil", level: 1 }).waitFor();
    const parts = maker.page.getByRole("definition").first();
    await parts.waitFor();
    const why = maker.page.getByLabel(/^Score parts: Omar Farouk Khalil scored/).first();
    await why.getByText("Name", { exact: true }).waitFor();
    await why.getByText("Date of birth", { exact: true }).waitFor();
    await why.getByText("Listed as", { exact: true }).waitFor();
    await why.getByText("individual", { exact: true }).waitFor();
    await expectAccessible(maker.page, "case page with a hit's score parts");
    await shots(maker.page, "case-hit-score-parts");

    await maker.page.getByLabel("Propose").selectOption({ label: "Clear (no report)" });
    await maker.page.getByLabel("Why").fill("Namesake: passport copy shows another place of birth");
    await maker.page.getByRole("button", { name: "Propose decision" }).click();
    await maker.page.getByText(/awaiting approval/).waitFor();
    const caseUrl = new URL(maker.page.url()).pathname;

    (await checkerRequest()).dispose();
    const checker = await openPage(browser);
    checker.page.setDefaultTimeout(20_000);
    await signInAsAdmin(checker.page, PASSWORD, inject("checkerEmail"));
    await checker.page.goto(caseUrl);
    await checker.page.getByRole("button", { name: "Approve: Clear (no report)" }).click();
    await checker.page.getByText("Decision approved and applied").waitFor();
    await checker.page.getByText("Cleared", { exact: true }).first().waitFor();

    // The list search: the same entry, by the same matcher, with its parts.
    await maker.page.goto("/admin/compliance");
    await maker.page.getByRole("link", { name: "List search" }).click();
    await maker.page.getByRole("heading", { name: "List search", level: 1 }).waitFor();
    await maker.page.getByLabel("Name", { exact: true }).fill("Omar Farouk Khalil");
    await maker.page.getByLabel("Date of birth (optional)").fill("1980-02-02");
    await maker.page.getByLabel("Type").selectOption("person");
    await maker.page.getByRole("button", { name: "Search" }).click();
    await maker.page.getByText(/^1 match for/).waitFor();
    const result = maker.page.getByRole("row").filter({ hasText: "KHALIL, Omar Farouk" });
    await result.getByText("CONS #9501", { exact: false }).waitFor();
    await result
      .getByLabel(/^Score parts: KHALIL, Omar Farouk scored/)
      .getByText("Date of birth")
      .waitFor();
    await expectAccessible(maker.page, "list search with a result");
    await shots(maker.page, "list-search");

    // A name nothing on the list resembles: said plainly.
    await maker.page.getByLabel("Name", { exact: true }).fill("A".repeat(200));
    await maker.page.getByRole("button", { name: "Search" }).click();
    await maker.page.getByText(/^No match for/).waitFor();
  });
});
