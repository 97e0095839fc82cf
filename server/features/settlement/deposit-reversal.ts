import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { formatMoney } from "@/contract/money";
import { DEPOSIT_REVERSED_MESSAGE, RETURNED_DEPOSIT_OWED_MESSAGE } from "@/contract/settlement";
import type { Tx } from "@/server/db/client";
import { chainDeposits, holds, transactions } from "@/server/db/schema";
import { debitReturnedMoney, releaseHold } from "@/server/lib/ledger";
import { notify } from "@/server/lib/notifications";

type DepositRow = typeof chainDeposits.$inferSelect;

/**
 * A booked deposit (credited, or held under review) whose log a reorg deeper than the confirmations took off the
 * canonical chain: it never arrived, so its credit is taken back (decision 056), inside a savepoint.
 * - held: its hold is released first (it was never available) and its pending credit is cancelled;
 * - credited: a completed "USDC deposit reversed" debit joins the history.
 * Either way one entry moves the amount from the wallet back to `usdc_deposits`, whatever the wallet holds: what
 * the customer already spent leaves the available balance below zero by exactly that (`returned_owed`), which the
 * wallet CHECK then holds them to — nothing can be sent until money they add covers it — and staff see it as a
 * returned deposit. The customer is told in plain words. The row was locked by the caller and the update repeats
 * its status, so one disappearance reverses once; if the transaction is mined again the row goes back to pending
 * and is credited once more.
 */
export async function reverseDeposit(
  tx: Tx,
  row: DepositRow,
  log?: FastifyBaseLogger,
): Promise<{ owed: number } | null> {
  if (!row.userId || (row.status !== "credited" && row.status !== "held")) {
    log?.error(
      { deposit: row.id, txHash: row.txHash, status: row.status },
      "booked chain deposit gone from the chain and not reversible here (no customer): for staff",
    );
    return null;
  }
  const userId = row.userId;
  try {
    return await tx.transaction(async (sp) => {
      if (row.status === "held" && row.holdId) {
        const [hold] = await sp.select({ status: holds.status }).from(holds).where(eq(holds.id, row.holdId));
        if (hold?.status === "open") await releaseHold(sp, row.holdId);
      }
      const { entryId, owed } = await debitReturnedMoney(sp, "usdc_deposits", userId, {
        kind: "usdc_deposit_reversal",
        description: `USDC deposit reversed ${row.txHash}`,
        referenceType: "chain_deposit",
        referenceId: row.id,
        amount: row.amountCents,
      });
      if (row.status === "held") {
        if (row.transactionId)
          await sp
            .update(transactions)
            .set({ status: "cancelled", updatedAt: new Date() })
            .where(and(eq(transactions.id, row.transactionId), eq(transactions.status, "pending")));
      } else {
        await sp.insert(transactions).values({
          userId,
          type: "debit",
          amount: row.amountCents,
          fee: 0,
          netAmount: row.amountCents,
          description: "USDC deposit reversed",
          category: "other",
          status: "completed",
          adminNotes: `tx ${row.txHash} log ${row.txLogIndex ?? "?"} of its transaction: removed by a chain reorganisation after it was credited`,
          sourceType: "usdc_deposit",
          sourceId: row.id,
          entryId,
        });
      }
      const updated = await sp
        .update(chainDeposits)
        .set({ status: "reversed", reversalEntryId: entryId, reversedAt: new Date() })
        .where(and(eq(chainDeposits.id, row.id), eq(chainDeposits.status, row.status)))
        .returning({ id: chainDeposits.id });
      if (updated.length !== 1) throw new Error(`deposit ${row.id} is no longer ${row.status}`);
      await notify(sp, userId, "money_in", {
        title: `${formatMoney(row.amountCents)} USDC deposit reversed`,
        body:
          owed > 0
            ? `${DEPOSIT_REVERSED_MESSAGE} ${RETURNED_DEPOSIT_OWED_MESSAGE}`
            : DEPOSIT_REVERSED_MESSAGE,
        link: "/add-money",
      });
      log?.warn(
        { deposit: row.id, txHash: row.txHash, amountCents: row.amountCents, owed },
        "booked chain deposit removed by a deep reorg: reversed",
      );
      return { owed };
    });
  } catch (err) {
    log?.error(
      { err, deposit: row.id, txHash: row.txHash },
      "chain deposit reversal failed: retried next pass",
    );
    return null;
  }
}
