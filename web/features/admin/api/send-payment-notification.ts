import { useMutation } from "@tanstack/react-query";
import type { PaymentNotificationInput } from "@/contract/admin";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/send-payment-notification: a sample "you've been paid" e-mail. */
export function sendPaymentNotification(input: PaymentNotificationInput) {
  return apiRequest<{ message: string }>("POST", "/api/admin/send-payment-notification", input);
}

export function useSendPaymentNotification() {
  return useMutation({ mutationFn: sendPaymentNotification });
}
