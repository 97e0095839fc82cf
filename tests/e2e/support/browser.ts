import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { e2eServer } from "@/tests/e2e/support/server";
import { lateBound } from "@/tests/support/late-bound";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** The file's Chromium: launched before its first test, closed after its last. */
export function setUpBrowser(): Browser {
  const browser = lateBound<Browser>("The browser");
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
    browser.set(launched);
  });
  afterAll(async () => {
    await launched?.close();
  });
  return browser.value;
}

export interface TrackedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far; a journey ends by asserting this is empty. */
  errors: string[];
}

/**
 * The app's address as http://localhost:PORT: WebAuthn refuses IP addresses as relying-party ids, so passkey
 * journeys browse by name (the server listens on 127.0.0.1, which localhost reaches).
 */
export function localhostBaseUrl(): string {
  const url = new URL(e2eServer().baseUrl);
  url.hostname = "localhost";
  return url.origin;
}

/** A fresh browser context (its own cookies) whose console errors are collected. */
export async function openPage(
  browser: Browser,
  width = 1280,
  baseURL: string = e2eServer().baseUrl,
): Promise<TrackedPage> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height: width < 600 ? 812 : 900 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    // A 4xx answer the page expects (e.g. 401 for a signed-out visitor) is logged by Chromium as a resource error.
    if (
      m.type() === "error" &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())
    )
      errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Chromium's built-in virtual authenticator: a platform passkey with a resident key and user verification. */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

/** A visible toast containing the text (Radix also keeps a hidden copy for screen readers, so match the item). */
export function toastWith(page: Page, text: string | RegExp) {
  return page.locator('[aria-label="Notifications (F8)"] li', { hasText: text });
}
