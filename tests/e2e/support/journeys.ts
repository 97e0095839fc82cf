import { type APIRequestContext, type Page, request } from "playwright-core";
import { expect, inject } from "vitest";
import { waitForMail } from "@/tests/e2e/support/mail";
import { e2eServer } from "@/tests/e2e/support/server";
import { PNG } from "@/tests/support/files";

/** The password every journey's customers sign up with. */
export const PASSWORD = "Harbor-Lantern-91-quietly";

export interface NewUser {
  email: string;
  firstName: string;
  tag: string;
  lastName?: string;
}

let counter = 0;
/** A fresh customer with a unique e-mail and tag. */
export function newUser(firstName: string): NewUser {
  const id = `${Date.now() % 1_000_000}${++counter}`;
  return {
    email: `${firstName.toLowerCase()}_${id}@example.com`,
    firstName,
    tag: `${firstName.toLowerCase()}_${id}`.slice(0, 20),
  };
}

/** Signs up through /auth's Get Started tab and verifies the e-mailed code; ends on the Sign In form. */
export async function signUp(page: Page, user: NewUser, password = PASSWORD) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Get Started" }).click();
  await page.getByLabel("First name").fill(user.firstName);
  await page.getByLabel("Last name").fill(user.lastName ?? "Tester");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Pillar tag").fill(user.tag);
  await page.getByLabel("Phone number").fill("+1 212 555 0142");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("checkbox", { name: /I agree to the Terms of Service/ }).click();
  await page.getByRole("button", { name: "Create Account" }).click();
  const mail = await waitForMail(user.email, (m) => /verification/i.test(m.subject));
  expect(mail.code).toMatch(/^\d{6}$/);
  await page.getByLabel("Verification code").fill(mail.code!);
  await page.getByRole("button", { name: "Verify Email" }).click();
  await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
}

/** A fresh customer (`lastName` or the sign-up default) signed up and then signed in on `page`. */
export async function signUpNewCustomer(page: Page, firstName: string, lastName?: string): Promise<NewUser> {
  const user = lastName ? { ...newUser(firstName), lastName } : newUser(firstName);
  await signUp(page, user);
  await signIn(page, user.email);
  return user;
}

/** Fills /auth's Sign In form with the e-mail and password and submits it. */
async function submitSignIn(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** Signs in through /auth and waits for the signed-in header. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await submitSignIn(page, email, password);
  await page
    .getByRole("link", { name: /settings/i })
    .first()
    .waitFor();
}

/** Signs in through /auth with the password of an account that has a second factor; ends on "Verify it's you". */
export async function signInUntilSecondFactor(page: Page, email: string, password = PASSWORD) {
  await submitSignIn(page, email, password);
  await page.getByRole("heading", { name: "Verify it's you" }).waitFor();
}

/**
 * Signs in as the e2e admin (`inject("adminEmail")`, made admin once verified). The app and its database
 * live for the whole e2e run, so the first journey to need the admin signs it up; later ones only sign in.
 */
export async function signInAsAdmin(page: Page, password = PASSWORD, email = inject("adminEmail")) {
  const probe = await page.request.post("/api/auth/login", { data: { email, password } });
  if (probe.ok()) {
    // The probe signed this context in; drop that session so the admin signs in through the form below.
    await page.context().clearCookies();
  } else {
    await signUp(
      page,
      { email, firstName: "Ada", lastName: "Admin", tag: `${email.split("@")[0]}_${Date.now() % 100000}` },
      password,
    );
  }
  await signIn(page, email, password);
  // Staff never bank: sign-in takes them straight to the back office.
  await page.waitForURL((url) => url.pathname === "/admin");
}

/** Screenshots only when asked for (`E2E_SHOTS=1`), into /tmp/shots-e2e. */
export async function shot(page: Page, name: string) {
  if (!process.env.E2E_SHOTS) return;
  await page.screenshot({ path: `/tmp/shots-e2e/${name}.png`, fullPage: true });
}

/** A screenshot at the desktop width and at a phone's 375 px (only when E2E_SHOTS is set). */
export async function shots(page: Page, name: string) {
  if (!process.env.E2E_SHOTS) return;
  await shot(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, `${name}-375`);
  if (size) await page.setViewportSize(size);
}

/** A random SSN whose area number starts at `area` (the 400s unless asked), so applications rarely share one. */
export const randomSsn = (area = 400) =>
  `${area + Math.floor(Math.random() * 99)}-${10 + Math.floor(Math.random() * 89)}-${1000 + Math.floor(Math.random() * 8999)}`;

/** One licence image through the spec's two-step upload (upload URL, then PUT); answers its object path. */
async function uploadLicenceImage(request: APIRequestContext) {
  const { uploadURL, objectPath } = await (await request.post("/api/objects/upload")).json();
  const put = await request.put(uploadURL, { data: PNG, headers: { "content-type": "image/png" } });
  expect(put.status()).toBe(200);
  return objectPath as string;
}

export interface AppliedCustomer {
  kyc: { id: string; userId: string };
  accountRequest: { id: string };
}

/**
 * The signed-in customer's KYC application through the API (onboarding.e2e covers those screens): two licence
 * images and a personal account at 5 Wall St, New York, unless `fields` says otherwise.
 */
export async function applyThroughApi(
  request: APIRequestContext,
  fields: { firstName: string; lastName: string } & Record<string, string>,
): Promise<AppliedCustomer> {
  const res = await request.post("/api/kyc/create", {
    data: {
      accountType: "personal",
      street: "5 Wall St",
      city: "New York",
      state: "NY",
      zipCode: "10005",
      ssn: randomSsn(),
      dateOfBirth: "1988-04-02",
      ...fields,
      drivingLicenseFront: await uploadLicenceImage(request),
      drivingLicenseBack: await uploadLicenceImage(request),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/**
 * Staff (`api`: a signed-in admin's request context) approve the application and the account, then credit
 * `amount` as completed payroll; answers the credit's JSON.
 */
export async function approveAndFund(api: APIRequestContext, applied: AppliedCustomer, amount: string) {
  expect(
    (await api.put(`/api/admin/kyc/${applied.kyc.id}/approve`, { data: { notes: "ok" } })).status(),
  ).toBe(200);
  const account = await api.put(`/api/admin/account-requests/${applied.accountRequest.id}`, {
    data: { status: "approved" },
  });
  expect(account.status()).toBe(200);
  return creditCustomer(api, applied.kyc.userId, amount, "Payroll");
}

/**
 * Staff (`api`) credit `amount` to a customer as a completed incoming payment; above what one admin may credit
 * alone (APPROVAL_THRESHOLD over the run's 24 hours) the e2e checker approves it. Answers the credit's JSON.
 */
export async function creditCustomer(
  api: APIRequestContext,
  userId: string,
  amount: string,
  description: string,
) {
  const credit = await api.post("/api/admin/incoming-payments", {
    data: { userId, amount, description, status: "completed", reason: "Journey funding" },
  });
  if (credit.status() === 202) {
    // The admin credited more than APPROVAL_THRESHOLD over the run's 24 hours: the second admin approves it.
    const checker = await checkerRequest();
    const approved = await checker.post(`/api/admin/approvals/${(await credit.json()).approval.id}/approve`, {
      data: {},
    });
    expect(approved.status(), await approved.text()).toBe(200);
    const { result } = await approved.json();
    await checker.dispose();
    return result;
  }
  expect(credit.status(), await credit.text()).toBe(201);
  return credit.json();
}

/**
 * Opens a checking account for a signed-up `user` through the API: they apply (applyThroughApi) from a context of
 * their own, and the e2e checker admin approves the identity check and then the account. Money reaches only
 * customers with an open account.
 */
export async function openAccountThroughApi(user: NewUser): Promise<AppliedCustomer> {
  const customer = await request.newContext({ baseURL: e2eServer().baseUrl });
  const login = await customer.post("/api/auth/login", { data: { email: user.email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const applied = await applyThroughApi(customer, {
    firstName: user.firstName,
    lastName: user.lastName ?? "Tester",
  });
  await customer.dispose();
  const staff = await checkerRequest();
  const kyc = await staff.put(`/api/admin/kyc/${applied.kyc.id}/approve`, { data: { notes: "ok" } });
  expect(kyc.status(), await kyc.text()).toBe(200);
  const account = await staff.put(`/api/admin/account-requests/${applied.accountRequest.id}`, {
    data: { status: "approved" },
  });
  expect(account.status(), await account.text()).toBe(200);
  await staff.dispose();
  return applied;
}

/**
 * A request context signed in as the e2e checker (`inject("checkerEmail")`, an admin through ADMIN_EMAILS),
 * signed up through the API the first time a journey needs it.
 */
export async function checkerRequest(): Promise<APIRequestContext> {
  const email = inject("checkerEmail");
  const api = await request.newContext({ baseURL: e2eServer().baseUrl });
  const login = () => api.post("/api/auth/login", { data: { email, password: PASSWORD } });
  if ((await login()).ok()) return api;
  const registered = await api.post("/api/auth/register", {
    data: {
      email,
      password: PASSWORD,
      firstName: "Cleo",
      lastName: "Checker",
      pillarTag: `checker_${Date.now() % 100000}`,
      phoneNumber: "+1 212 555 0143",
    },
  });
  if (registered.ok()) {
    const mail = await waitForMail(email, (m) => /verification/i.test(m.subject));
    const verified = await api.post("/api/auth/verify-email", {
      data: { email, otp: mail.code, password: PASSWORD },
    });
    expect(verified.status(), await verified.text()).toBe(200);
  }
  const signedIn = await login();
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return api;
}

/** The USDC address the journeys send money to (Ana Ruiz's). */
export const USDC_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";

/** Opens /send-money and fills the form: `amount` in USDC to Ana Ruiz for `purpose`. */
export async function fillTransferForm(page: Page, amount: string, purpose: string) {
  await page.goto("/send-money");
  await page.getByLabel("Amount (USD)").fill(amount);
  await page.getByLabel("Recipient Name").fill("Ana Ruiz");
  await page.getByLabel("USDC Wallet Address").fill(USDC_ADDRESS);
  await page.getByLabel("Transfer Purpose").fill(purpose);
}

/** The signed-in customer sends `amount` in USDC to Ana Ruiz through the API; answers the transfer request. */
export async function requestTransferThroughApi(request: APIRequestContext, amount: string) {
  const sent = await request.post("/api/transfer/request", {
    data: {
      amount,
      recipientName: "Ana Ruiz",
      purpose: "Books",
      paymentMethod: "crypto",
      cryptoAddress: USDC_ADDRESS,
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  return (await sent.json()).transferRequest as { id: string };
}
