import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import type { AppDeps } from "@/server/app-deps";
import { afterCommit } from "@/server/db/after-commit";
import { queryRows } from "@/server/db/client";
import { freezeLinks } from "@/server/db/schema";
import { FREEZE_LINK_TTL_SECONDS, newFreezeLink } from "@/server/features/security/freeze-links";
import type { Consumer } from "@/server/jobs/consumer";
import { TRANSFER_REQUESTED, transferRequests } from "@/server/jobs/consumers/transfer-events";
import { enqueueMails, wakeMailWorker } from "@/server/lib/mail/outbox";
import { transferRequestedMail } from "@/server/lib/mail/security-templates";
import type { MailMessage } from "@/server/lib/mail/templates";

/**
 * The "Transfer requested" mail with its "This wasn't me" link, after the transfer's commit (decision 049):
 * for a batch of transfer.requested events, one read of their customers, one insert of the links and one of
 * the mails, in the consumer's transaction with its cursor, so each transfer's mail is written exactly once
 * however often a batch rolls back and runs again. A customer deleted since gets none.
 */
export function transferMailConsumer(deps: Pick<AppDeps, "config">): Consumer {
  return {
    name: "transfer-mail",
    kinds: [TRANSFER_REQUESTED],
    async handle(tx, events) {
      const transfers = transferRequests(events);
      if (transfers.length === 0) return;
      const owners = await queryRows(
        tx,
        sql`select id, email, first_name from users
            where id = any(${`{${[...new Set(transfers.map((t) => t.userId))].join(",")}}`}::uuid[])`,
        z.object({ id: z.string(), email: z.string(), first_name: z.string() }),
      );
      const links: { userId: string; tokenHash: string }[] = [];
      const mails: MailMessage[] = [];
      for (const transfer of transfers) {
        const owner = owners.find((o) => o.id === transfer.userId);
        if (!owner) continue;
        const link = newFreezeLink(deps.config);
        links.push({ userId: owner.id, tokenHash: link.tokenHash });
        mails.push(
          transferRequestedMail(owner.email, {
            firstName: owner.first_name,
            when: new Date(transfer.created_at),
            amount: formatMoney(transfer.amount_cents),
            recipientName: transfer.recipient_name,
            address: transfer.crypto_address,
            freezeUrl: link.url,
          }),
        );
      }
      if (mails.length === 0) return;
      await tx.insert(freezeLinks).values(
        links.map((link) => ({
          ...link,
          reason: "transfer",
          expiresAt: sql`now() + make_interval(secs => ${FREEZE_LINK_TTL_SECONDS})`,
        })),
      );
      await enqueueMails(tx, mails);
      afterCommit(tx, wakeMailWorker);
    },
  };
}
