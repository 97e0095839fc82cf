import { afterCommit } from "@/server/db/after-commit";
import { interestCredited, interestPaidNotifications } from "@/server/features/savings/interest";
import type { Consumer } from "@/server/jobs/consumer";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { notifyAll } from "@/server/lib/notifications";

/**
 * Customers told of their month's interest after the credit's commit (issue 51 §3, issue 49's rule): each
 * batch's event names the customers it paid, and this writes their "Interest paid" notices and e-mails with the
 * cursor's move, so each is written once however often a batch is tried. One event a pass: an event carries a
 * whole credit batch (INTEREST_BATCH customers).
 */
export const interestNoticesConsumer: Consumer = {
  name: "interest-notices",
  kinds: ["savings.interest_credited"],
  batchSize: 1,
  async handle(tx, events) {
    for (const event of events) {
      const notifications = await interestPaidNotifications(tx, interestCredited.parse(event.payload));
      await notifyAll(tx, notifications);
      if (notifications.length > 0) afterCommit(tx, wakeMailWorker);
    }
  },
};
