import { useMutation } from "@tanstack/react-query";
import type { RegisterInput } from "@/contract/auth";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/register. An existing unverified account answers with `emailNotVerified: true`. */
export function register(input: RegisterInput) {
  return callEndpoint("POST /api/auth/register", { body: input });
}

export function useRegister() {
  return useMutation({ mutationFn: register, meta: { on401: "ignore" } });
}
