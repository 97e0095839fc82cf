import { useMutation } from "@tanstack/react-query";
import type { TestEmailInput } from "@/contract/admin";
import { apiRequest } from "@/web/lib/api";

/** POST /api/admin/test-email: sends a sample one-time-code e-mail; answers with the address used. */
export function sendTestEmail(input: TestEmailInput) {
  return apiRequest<{ message: string; email: string }>("POST", "/api/admin/test-email", input);
}

export function useSendTestEmail() {
  return useMutation({ mutationFn: sendTestEmail });
}
