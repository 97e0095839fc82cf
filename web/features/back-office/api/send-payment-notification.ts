import { useMutation } from "@tanstack/react-query";
import type { PaymentNotificationInput } from "@/contract/admin";
import type { MessageResponse } from "@/contract/auth";
import { toast } from "@/web/components/ui/use-toast";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/send-payment-notification: a sample "you've been paid" e-mail. */
export function sendPaymentNotification(input: PaymentNotificationInput) {
  return apiRequest<MessageResponse>("POST", "/api/admin/send-payment-notification", input);
}

export function useSendPaymentNotification() {
  return useMutation({
    mutationFn: sendPaymentNotification,
    onSuccess: () => toast({ title: "Payment notification email sent successfully" }),
  });
}
