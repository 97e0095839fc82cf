import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AccountRequestStatus, KycStatus } from "@/contract/kyc";
import { queryRows } from "@/server/db/client";
import { accountRequests } from "@/server/db/schema";
import { ETH_ADDRESS, expectLedgerCleanAfterEach, insertKycApplication } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
expectLedgerCleanAfterEach(t);

const KYC_STATES: (KycStatus | null)[] = [null, "pending", "approved", "rejected"];
const ACCOUNT_STATES: (AccountRequestStatus | "approved without a number" | null)[] = [
  null,
  "pending",
  "in_review",
  "approved",
  "approved without a number",
  "rejected",
];

async function customerIn(kyc: KycStatus | null, account: (typeof ACCOUNT_STATES)[number]) {
  const customer = await createVerifiedUser(t.database);
  const kycId = kyc ? await insertKycApplication(t.database, customer, kyc) : null;
  if (account) {
    const hasNumber = account === "approved";
    await t.database.db.insert(accountRequests).values({
      userId: customer.user.id,
      kycApplicationId: kycId,
      accountType: "personal",
      status: account === "approved without a number" ? "approved" : account,
      accountNumber: hasNumber ? String(100_000_000 + Math.floor(Math.random() * 899_999_999)) : null,
      routingNumber: hasNumber ? "021000021" : null,
    });
  }
  return customer;
}

async function sqlGate(customer: SignedInUser): Promise<boolean> {
  const [row] = await queryRows(
    t.database.db,
    sql`select can_send_money(${customer.user.id}::uuid) as open`,
    z.object({ open: z.boolean() }),
  );
  return row!.open;
}

describe("the send-money gate", () => {
  const states = KYC_STATES.flatMap((kyc) => ACCOUNT_STATES.map((account) => [kyc, account] as const));

  it.each(states)("agrees on both sides for KYC %s and account %s", async (kyc, account) => {
    const customer = await customerIn(kyc, account);
    const summary = await t.app.inject({
      method: "GET",
      url: "/api/account/summary",
      headers: { cookie: customer.cookie },
    });
    // What the web shows is what the server decided: the summary carries can_send_money's answer.
    const shown = summary.json().canSendMoney as boolean;
    expect(await sqlGate(customer)).toBe(shown);
    // The rule itself (was a test of its own): open only for an approved account with a number and an approved KYC.
    expect(shown).toBe(kyc === "approved" && account === "approved");

    // The transfer path itself: a closed gate is the setup refusal, an open one reaches the money checks.
    const res = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      headers: { cookie: customer.cookie },
      payload: {
        amount: 10,
        recipientName: "Sam Lee",
        purpose: "Dinner at a restaurant",
        paymentMethod: "crypto",
        recipientRouting: "CRYPTO",
        cryptoAddress: ETH_ADDRESS,
      },
    });
    expect(res.json().accountSetupIncomplete === true).toBe(!shown);
  });
});
