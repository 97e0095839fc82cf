import { generateSync } from "otplib";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "@/tests/e2e/support/axe";
import { openPage, setUpBrowser, type TrackedPage } from "@/tests/e2e/support/browser";
import {
  applyThroughApi,
  approveAndFund,
  requestTransferThroughApi,
  signInAsAdmin,
  signInUntilSecondFactor,
  signUpNewCustomer,
} from "@/tests/e2e/support/journeys";

const browser = setUpBrowser();
let visitor: TrackedPage;
let customer: TrackedPage;
let admin: TrackedPage;

beforeAll(async () => {
  visitor = await openPage(browser);
});

describe("accessibility (axe-core: no serious or critical violations)", () => {
  it("landing page", async () => {
    await visitor.page.goto("/");
    await visitor.page.getByRole("heading", { level: 1 }).waitFor();
    await expectAccessible(visitor.page, "/");
  });

  it("trust pages: privacy, terms, security", async () => {
    for (const [path, title] of [
      ["/privacy", "Privacy Policy"],
      ["/terms", "Terms of Service"],
      ["/security", "Security"],
    ] as const) {
      await visitor.page.goto(path);
      await visitor.page.getByRole("heading", { level: 1, name: title }).waitFor();
      await expectAccessible(visitor.page, path);
    }
  });

  it("the signed-out confirmation after logout", async () => {
    await visitor.page.goto("/auth?signedOut=1");
    await visitor.page.getByText("You're signed out").waitFor();
    await expectAccessible(visitor.page, "/auth?signedOut=1");
  });

  it("sign-in and register forms", async () => {
    await visitor.page.goto("/auth");
    await visitor.page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    await expectAccessible(visitor.page, "/auth (Sign In)");
    await visitor.page.getByRole("tab", { name: "Get Started" }).click();
    await visitor.page.getByLabel("Confirm password").waitFor();
    await expectAccessible(visitor.page, "/auth (Get Started)");
    // The inline errors an empty submit shows are announced and labelled too.
    await visitor.page.getByRole("button", { name: "Create Account" }).click();
    await visitor.page.getByText("Please agree to the Terms of Service and Privacy Policy").waitFor();
    await expectAccessible(visitor.page, "/auth (Get Started, with field errors)");
  });

  it("signed-in customer pages: dashboard, send money, analytics, statements, transfer receipt, contact", async () => {
    customer = await openPage(browser);
    await signUpNewCustomer(customer.page, "Alex");
    const applied = await applyThroughApi(customer.context.request, {
      firstName: "Alex",
      lastName: "Access",
    });
    admin = await openPage(browser);
    await signInAsAdmin(admin.page);
    const api = admin.context.request;
    await approveAndFund(api, applied, "320.00");

    const { page } = customer;
    await page.goto("/dashboard");
    await page.getByText("$320.00").first().waitFor();
    await expectAccessible(page, "/dashboard");

    await page.goto("/send-money");
    await page.getByLabel("Amount (USD)").waitFor();
    // Its title is the page's one h1, as on every other customer page.
    expect(await page.getByRole("heading", { level: 1 }).allTextContents()).toEqual(["Send Money"]);
    await expectAccessible(page, "/send-money");

    await page.goto("/analytics");
    await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    await expectAccessible(page, "/analytics");

    await page.goto("/statements");
    await page.getByRole("heading", { name: "Statements", level: 1 }).waitFor();
    await page
      .getByRole("link", { name: /Download PDF statement/ })
      .first()
      .waitFor();
    await expectAccessible(page, "/statements");

    // The receipt of a pending transfer: its timeline, the PDF link and the cancel button.
    const transferId = (await requestTransferThroughApi(customer.context.request, "12.50")).id;
    await page.goto(`/transfers/${transferId}`);
    await page.getByRole("heading", { name: "USDC transfer to Ana Ruiz", level: 1 }).waitFor();
    await expectAccessible(page, "/transfers/{id}");

    await page.goto("/contact");
    await page.getByRole("heading", { name: "Contact Support", level: 1 }).waitFor();
    await expectAccessible(page, "/contact");
    expect(customer.errors).toEqual([]);
  });

  it("second factor screens: authenticator setup, recovery codes, the sign-in verify step", async () => {
    const page = (await openPage(browser)).page;
    const user = await signUpNewCustomer(page, "Sam");
    await page.goto("/settings");
    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    await page.getByRole("img", { name: /QR code/ }).waitFor();
    await expectAccessible(page, "/settings (authenticator setup)");
    const secret = (await page.getByTestId("totp-manual-key").innerText()).replace(/\s/g, "");
    await page.getByLabel("2. Enter the 6-digit code from the app").fill(generateSync({ secret }));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByRole("list", { name: "Recovery codes" }).waitFor();
    await expectAccessible(page, "/settings (recovery codes)");
    await page.getByRole("button", { name: "I saved them" }).click();
    await page.goto("/api/logout");
    await signInUntilSecondFactor(page, user.email);
    await expectAccessible(page, "/auth (verify it's you)");
  });

  it("admin dashboard tabs", async () => {
    const { page } = admin;
    await page.goto("/admin");
    await page.getByRole("tab", { name: "User Management" }).waitFor();
    await expectAccessible(page, "/admin (User Management)");
    await page.getByRole("tab", { name: "Outgoing Pays" }).click();
    await expectAccessible(page, "/admin (Outgoing Pays)");
    expect(admin.errors).toEqual([]);
  });

  it("saw no console errors as a visitor", () => {
    expect(visitor.errors).toEqual([]);
  });
});
