import { useMutation } from "@tanstack/react-query";
import type { FreezeAccountInput } from "@/contract/security";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/account/freeze with the token from a "This wasn't me" link; no sign-in needed. */
export function freezeAccount(input: FreezeAccountInput) {
  return callEndpoint("POST /api/account/freeze", { body: input });
}

export function useFreezeAccount() {
  return useMutation({ mutationFn: freezeAccount, meta: { on401: "ignore" } });
}
