import { describe, expect, it } from "vitest";
import { ADMIN_ROUTE_ROLES, DOCUMENT_ROLES } from "@/contract/admin-route-roles";
import { holdsAnyRole, type StaffRole } from "@/contract/staff";
import { canUse, STAFF_CAPABILITIES, type StaffCapability } from "@/contract/staff-capabilities";

// The duties each role must never have, written independently of the table: a row that hands, say, balance
// edits to support fails here even though every route × role status in the abuse matrix follows the table.
const TABLE: Readonly<Record<string, readonly StaffRole[]>> = ADMIN_ROUTE_ROLES;
const routesOf = (role: StaffRole) => Object.keys(TABLE).filter((key) => holdsAnyRole([role], TABLE[key]!));

const MONEY = /transfer-requests|incoming-payments|transactions|balance|ledger|payment-notification/;
const IDENTITY = /kyc|account-requests|unfreeze/;
const CHATS = /chats|dashboard-content/;
const OWNER_ONLY = /\/staff|test-email|^DELETE /;
// Support writes only these: chat replies, dashboard text, and a note on a customer's own limits (the one thing
// staff may do about a self-block or personal limit, decision 035).
const SUPPORT_WRITES = new RegExp(`${CHATS.source}|self-limit-notes`);

describe("separation of duties in ADMIN_ROUTE_ROLES", () => {
  it("keeps support to chats, dashboard text, notes on self-limits and the read-only customer view", () => {
    for (const key of routesOf("support")) {
      expect(key, key).not.toMatch(MONEY);
      expect(key, key).not.toMatch(IDENTITY);
      expect(key, key).not.toMatch(OWNER_ONLY);
      if (!SUPPORT_WRITES.test(key)) expect(key.startsWith("GET "), key).toBe(true);
    }
  });

  it("keeps compliance away from money and chats, and finance away from identity and chats", () => {
    for (const key of routesOf("compliance"))
      expect(key, key).not.toMatch(new RegExp(`${MONEY.source}|${CHATS.source}|${OWNER_ONLY.source}`));
    for (const key of routesOf("finance"))
      expect(key, key).not.toMatch(new RegExp(`${IDENTITY.source}|${CHATS.source}|${OWNER_ONLY.source}`));
  });

  it("leaves granting roles, deleting users and test mail to owners alone", () => {
    for (const key of Object.keys(TABLE).filter((k) => OWNER_ONLY.test(k)))
      expect(TABLE[key], key).toEqual(["owner"]);
  });

  it("opens documents to compliance only (and owners)", () => {
    expect(DOCUMENT_ROLES).toEqual(["compliance"]);
  });
});

describe("the admin web's capabilities", () => {
  it("name only routes in the role table", () => {
    for (const need of Object.values(STAFF_CAPABILITIES)) {
      if (typeof need === "string") expect(TABLE[need], need).toBeDefined();
    }
  });

  it("show each role its own tabs and buttons, and owners everything", () => {
    const shown = (roles: StaffRole[]) =>
      (Object.keys(STAFF_CAPABILITIES) as StaffCapability[]).filter((c) => canUse(roles, c)).sort();
    expect(shown(["support"])).toEqual(["chatsTab", "editDashboardContent", "usersTab"]);
    expect(shown(["compliance"])).toEqual([
      "accountRequestsTab",
      "approvalsTab",
      "auditTab",
      "closeAccount",
      "complianceDesk",
      "decideCase",
      "kycTab",
      "liftFreeze",
      "liftSendBlock",
      "loadSanctionsList",
      "monitoringAlerts",
      "openDocuments",
      "revealDateOfBirth",
      "revealSsn",
      "usersTab",
    ]);
    expect(shown(["finance"])).toEqual([
      "acknowledgeDifference",
      "approvalsTab",
      "editBalance",
      "incomingTab",
      "outgoingTab",
      "proposeDepositReturn",
      "proposeSettledOutside",
      "runReconciliation",
      "savingsFinanceTab",
      "settlementTab",
      "speedUpPayout",
      "startTaxFormRun",
      "usersTab",
    ]);
    expect(shown(["owner"])).toEqual(Object.keys(STAFF_CAPABILITIES).sort());
    expect(shown([])).toEqual([]);
  });
});
