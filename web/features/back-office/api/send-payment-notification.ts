import { useMutation } from "@tanstack/react-query";
import type { PaymentNotificationInput } from "@/contract/admin";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/send-payment-notification: a sample "you've been paid" e-mail. */
export function sendPaymentNotification(input: PaymentNotificationInput) {
  return callEndpoint("POST /api/admin/send-payment-notification", { body: input });
}

export function useSendPaymentNotification() {
  return useMutation({
    mutationFn: sendPaymentNotification,
    onSuccess: () => toast({ title: "Payment notification email sent successfully" }),
  });
}
