import { describe, expect, it } from "vitest";
import { openPage, setUpBrowser, toastWith } from "@/tests/e2e/support/browser";
import { e2eServer } from "@/tests/e2e/support/server";

const browser = setUpBrowser();

describe("public site", () => {
  it("shows the landing page as the spec describes and scrolls to the features", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto("/");
    await expect
      .poll(() => page.title())
      .toBe("Pillar - Modern Digital Banking Platform | Free Banking Services");
    await page.getByRole("heading", { level: 1, name: "Modern Digital Banking for Everyone" }).waitFor();

    const nav = page.getByRole("navigation").first();
    for (const name of ["Home", "About", "Features"])
      await nav.getByRole("link", { name, exact: true }).waitFor();
    await page.getByRole("link", { name: "Get Started Free" }).waitFor();

    await page.getByRole("button", { name: "Explore More" }).click();
    for (const title of ["Instant Transfers", "Bank-Level Security", "Smart Analytics"]) {
      await page.getByRole("heading", { name: title, exact: true }).first().waitFor();
    }
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);

    const footer = page.locator("footer");
    await footer.getByText("Quick Links").waitFor();
    await footer.getByText("Available 24/7").waitFor();
    for (const service of [
      "Digital Banking",
      "Instant Transfers",
      "Smart Analytics",
      "Mobile Banking",
      "24/7 Support",
    ]) {
      await footer.getByText(service, { exact: true }).first().waitFor();
    }
    for (const name of ["Privacy Policy", "Terms of Service", "Security"]) {
      await footer.getByRole("link", { name, exact: true }).waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("leads from the landing page to about, features and sign-in", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto("/");
    await page.getByRole("navigation").first().getByRole("link", { name: "About", exact: true }).click();
    await page.waitForURL("**/about");
    await page.getByRole("link", { name: "Get Started" }).first().waitFor();

    await page.goto("/features");
    for (const tab of ["Payments", "Savings", "Tools", "Support"])
      await page.getByRole("tab", { name: tab }).waitFor();
    await page.getByRole("tab", { name: "Savings" }).click();
    await expect
      .poll(() => page.getByRole("tab", { name: "Savings" }).getAttribute("aria-selected"))
      .toBe("true");

    await page.goto("/");
    await page.getByRole("link", { name: "Login" }).first().click();
    await page.waitForURL("**/auth");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the not-found screen for an unknown path and goes home", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto("/this/does/not/exist");
    await page.getByRole("heading", { name: "Whoops! Page Not Found" }).waitFor();
    await page.getByRole("button", { name: "Go Back" }).waitFor();
    await page
      .getByRole("link", { name: "Take Me Home" })
      .or(page.getByRole("button", { name: "Take Me Home" }))
      .click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { level: 1, name: "Modern Digital Banking for Everyone" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("makes no session probe and logs no console error for a signed-out visitor", async () => {
    const { page, context } = await openPage(browser);
    const consoleErrors: string[] = [];
    const probes: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/auth/user") probes.push(r.url());
    });
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Modern Digital Banking for Everyone" }).waitFor();
    await page.goto("/about");
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(consoleErrors).toEqual([]);
    expect(probes).toEqual([]);
    await context.close();
  });

  it("sends a signed-out visitor on a signed-in page to sign-in, and keeps not-found for unknown paths", async () => {
    const { page, errors, context } = await openPage(browser);
    for (const path of ["/dashboard", "/send-money", "/settings"]) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("next") === path);
      await page.getByText("Sign in to continue.").waitFor();
    }
    await page.goto("/dashboard-nope");
    await page.getByRole("heading", { name: "Whoops! Page Not Found" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("serves the trust pages from the footer, each with its own heading", async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto("/");
    for (const [name, path] of [
      ["Privacy Policy", "/privacy"],
      ["Terms of Service", "/terms"],
      ["Security", "/security"],
    ] as const) {
      await page.locator("footer").getByRole("link", { name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole("heading", { level: 1, name }).waitFor();
    }
    await page.getByText("AES-256-GCM").first().waitFor();
    await page.goto("/privacy");
    await page
      .getByText(/30 minutes without activity or 12 hours/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows inline errors beside the toast, and at 375 px the toast never covers the field in error", async () => {
    const { page, errors, context } = await openPage(browser, 375);
    const overlaps = async (fieldId: string) => {
      const toast = await toastWith(page, /./).first().boundingBox();
      const field = await page.locator(`#${fieldId}`).boundingBox();
      if (!toast || !field) throw new Error("toast or field not on screen");
      return !(toast.y + toast.height <= field.y || field.y + field.height <= toast.y);
    };
    await page.goto("/auth");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await toastWith(page, "Missing information").waitFor();
    await page.locator("#signin-email-error").waitFor();
    expect(await page.locator("#signin-email").getAttribute("aria-invalid")).toBe("true");
    expect(await overlaps("signin-email")).toBe(false);

    await page.getByRole("tab", { name: "Get Started" }).click();
    await page.getByLabel("First name").fill("Pat");
    await page.getByLabel("Last name").fill("Lee");
    await page.getByLabel("Email").fill("pat@example.com");
    await page.getByLabel("Pillar tag").fill("pat_lee");
    await page.getByLabel("Phone number").fill("+1 212 555 0142");
    await page.getByLabel("Password", { exact: true }).fill("Harbor-Lantern-91");
    await page.getByLabel("Confirm password").fill("Harbor-Lantern-91");
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.getByText("Please agree to the Terms of Service and Privacy Policy").last().waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("signup-terms");
    expect(await overlaps("signup-terms")).toBe(false);

    await page.goto("/forgot-password");
    await page.getByRole("button", { name: "Send Reset Code" }).click();
    await page.locator("#forgot-email-error").waitFor();
    expect(await overlaps("forgot-email")).toBe(false);
    // The server answers alike for unknown addresses, so the toast and the code step both hedge.
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Send Reset Code" }).click();
    await page.getByLabel("Reset code").waitFor();
    await toastWith(page, "If an account exists for nobody@example.com").waitFor();
    await page
      .locator("form")
      .getByText(/If an account exists for/)
      .waitFor();
    expect(await page.getByText(/^Code sent/).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 375 px phone without sideways scrolling", async () => {
    const { page, errors, context } = await openPage(browser, 375);
    for (const path of ["/", "/about", "/features", "/nope", "/privacy", "/terms", "/security"]) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(1);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("serves hashed assets with a long cache and client routes with the app shell", async () => {
    const base = e2eServer().baseUrl;
    const html = await fetch(`${base}/features`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toMatch(/text\/html/);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await html.text())?.[1];
    expect(asset).toBeTruthy();
    const js = await fetch(`${base}${asset}`);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const api = await fetch(`${base}/api/unknown`);
    expect(api.status).toBe(404);
    expect((await api.json()).message).toBe("No route for GET /api/unknown");
  });
});
