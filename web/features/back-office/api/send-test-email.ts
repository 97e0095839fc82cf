import { useMutation } from "@tanstack/react-query";
import type { TestEmailInput, TestEmailResponse } from "@/contract/admin";
import { toast } from "@/web/components/ui/use-toast";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/test-email: sends a sample one-time-code e-mail; answers with the address used. */
export function sendTestEmail(input: TestEmailInput) {
  return apiRequest<TestEmailResponse>("POST", "/api/admin/test-email", input);
}

export function useSendTestEmail() {
  return useMutation({
    mutationFn: sendTestEmail,
    onSuccess: ({ email }) => toast({ title: `Test email sent successfully to ${email}` }),
  });
}
