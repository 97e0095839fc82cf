import { z } from "zod";
import { afterCommit } from "@/server/db/after-commit";
import { requestPaidNotification } from "@/server/features/tag-payments/money-requests";
import { tagPaymentNotifications } from "@/server/features/tag-payments/pay-by-tag";
import type { Consumer } from "@/server/jobs/consumer";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { type Notification, notifyAll } from "@/server/lib/notifications";

/** What pay_by_tag's event says of the payment (server/db/functions/pay-by-tag.sql). */
const madePayment = z.object({
  payer_id: z.guid(),
  payee_id: z.guid(),
  amount_cents: z.number().int().positive(),
  payer_tag: z.string(),
  payee_tag: z.string(),
  money_request_id: z.guid().nullable(),
});

/**
 * Both parties told of a payment by $tag after its commit (decision 050): the payer's "Paid $tag", the
 * payee's "Payment from $tag", or for a money request paid the requester's "paid your request" with its
 * e-mail, each as the customer chose in Settings → Notifications. The rows and the outbox's mail are written
 * with the cursor's move, so each is written once however often a batch is tried.
 */
export const tagPaymentsConsumer: Consumer = {
  name: "tag-payments",
  kinds: ["tag_payment.made"],
  async handle(tx, events) {
    const notifications: Notification[] = [];
    for (const event of events) {
      const payment = madePayment.parse(event.payload);
      notifications.push(
        ...tagPaymentNotifications({
          payerId: payment.payer_id,
          payeeId: payment.payee_id,
          amountCents: payment.amount_cents,
          payerTag: payment.payer_tag,
          payeeTag: payment.payee_tag,
          paysRequest: payment.money_request_id !== null,
        }),
      );
      if (payment.money_request_id !== null) {
        const told = await requestPaidNotification(tx, payment.money_request_id);
        if (told) notifications.push(told);
      }
    }
    await notifyAll(tx, notifications);
    if (notifications.some((n) => n.mail)) afterCommit(tx, wakeMailWorker);
  },
};
