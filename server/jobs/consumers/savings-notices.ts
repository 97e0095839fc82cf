import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { afterCommit } from "@/server/db/after-commit";
import { queryRows } from "@/server/db/client";
import { interestCredited, interestPaidNotifications } from "@/server/features/savings/interest";
import type { Consumer } from "@/server/jobs/consumer";
import { savingsClosedMail } from "@/server/lib/mail/money-templates";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { type Notification, notifyAll } from "@/server/lib/notifications";

/** What close_savings's event says of the closing (server/db/functions/savings.sql). */
const savingsClosed = z.object({
  moved_cents: z.number().int().nonnegative(),
  interest_cents: z.number().int().nonnegative(),
});

/**
 * Customers told of their savings after its commit (decision 072): a month's interest (each
 * credit batch's event names the customers it paid: "Interest paid") and a closing ("Savings account closed",
 * with what moved to checking). The notices and e-mails are written with the cursor's move, so each is written
 * once however often a batch is tried. Few events a pass: one credit event carries a whole batch
 * (INTEREST_BATCH customers).
 */
export const savingsNoticesConsumer: Consumer = {
  name: "savings-notices",
  kinds: ["savings.interest_credited", "savings.closed"],
  batchSize: 1,
  async handle(tx, events) {
    const notifications: Notification[] = [];
    for (const event of events) {
      if (event.kind === "savings.interest_credited") {
        notifications.push(...(await interestPaidNotifications(tx, interestCredited.parse(event.payload))));
        continue;
      }
      const closing = savingsClosed.parse(event.payload);
      const [person] = await queryRows(
        tx,
        sql`select email, first_name from users where id = ${event.userId}`,
        z.object({ email: z.string(), first_name: z.string() }),
      );
      if (!person || !event.userId) continue;
      const moved = formatMoney(closing.moved_cents);
      const interest = formatMoney(closing.interest_cents);
      notifications.push({
        userId: event.userId,
        kind: "account_decision",
        content: {
          title: "Savings account closed",
          body:
            `${moved} moved to your checking account` +
            (closing.interest_cents > 0 ? `, ${interest} of it interest paid at closing.` : "."),
          link: "/dashboard",
        },
        mail: savingsClosedMail(person.email, { firstName: person.first_name, moved, interest }),
      });
    }
    await notifyAll(tx, notifications);
    if (notifications.some((n) => n.mail)) afterCommit(tx, wakeMailWorker);
  },
};
