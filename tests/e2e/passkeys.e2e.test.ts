import { describe, expect, it } from "vitest";
import {
  addVirtualAuthenticator,
  localhostBaseUrl,
  openPage,
  setUpBrowser,
  toastWith,
} from "@/tests/e2e/support/browser";
import { shot, signUpNewCustomer } from "@/tests/e2e/support/journeys";
import { waitForMail } from "@/tests/e2e/support/mail";

const browser = setUpBrowser();

describe("passkeys journey", () => {
  it("adds a passkey in Settings, signs out and signs back in with it alone", async () => {
    const { page, errors } = await openPage(browser, 1280, localhostBaseUrl());
    const authenticator = await addVirtualAuthenticator(page);
    const user = await signUpNewCustomer(page, "Passkey");

    await page.goto("/settings");
    const section = page.getByRole("heading", { name: "Passkeys" });
    await section.waitFor();
    await page.getByText("No passkeys yet").waitFor();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    const name = page.getByLabel("Passkey name");
    await expect.poll(() => name.inputValue()).toMatch(/Chrome on Linux|on Linux/);
    await name.fill("E2E laptop");
    await page.getByRole("button", { name: "Continue" }).click();
    await toastWith(page, "Passkey added").waitFor();
    await page.getByRole("list", { name: "Your passkeys" }).getByText("E2E laptop").waitFor();
    await page.getByText("Not used yet").waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    await waitForMail(user.email, (m) => /passkey was added/i.test(m.subject));
    await shot(page, "passkeys-settings-one");

    await page
      .getByRole("button", { name: /log ?out/i })
      .or(page.getByRole("link", { name: /log ?out/i }))
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("signedOut") === "1");

    await page.goto("/auth");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    // A full load of "/", which is the dashboard once signed in, as after a password sign-in.
    await page.waitForURL((url) => url.pathname === "/");
    await page
      .getByRole("link", { name: /settings/i })
      .first()
      .waitFor();
    await shot(page, "passkeys-dashboard-after-passkey");
    const me = await page.request.get("/api/auth/user");
    expect((await me.json()).email).toBe(user.email);

    await page.goto("/settings");
    await page.getByText(/Last used/).waitFor();
    expect(errors).toEqual([]);
  });
});
