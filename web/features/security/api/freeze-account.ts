import { useMutation } from "@tanstack/react-query";
import type { FreezeAccountInput, FreezeAccountResponse } from "@/contract/security";
import { apiRequest } from "@/web/lib/api";

/** POST /api/account/freeze with the token from a "This wasn't me" link; no sign-in needed. */
export function freezeAccount(input: FreezeAccountInput) {
  return apiRequest<FreezeAccountResponse>("POST", "/api/account/freeze", input);
}

export function useFreezeAccount() {
  return useMutation({ mutationFn: freezeAccount, meta: { on401: "ignore" } });
}
