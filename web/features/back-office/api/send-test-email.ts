import { useMutation } from "@tanstack/react-query";
import type { TestEmailInput } from "@/contract/admin";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/admin/test-email: sends a sample one-time-code e-mail; answers with the address used. */
export function sendTestEmail(input: TestEmailInput) {
  return callEndpoint("POST /api/admin/test-email", { body: input });
}

export function useSendTestEmail() {
  return useMutation({
    mutationFn: sendTestEmail,
    onSuccess: ({ email }) => toast({ title: `Test email sent successfully to ${email}` }),
  });
}
