import { useMutation } from "@tanstack/react-query";
import type { LoginInput, LoginResponse } from "@/contract/auth";
import type { LoginSecondFactorResponse } from "@/contract/security";
import { callEndpoint } from "@/web/lib/api";

/**
 * POST /api/auth/login. A 401 here means wrong credentials, not a lost session. With a second factor on,
 * the answer asks for it instead of signing in: one of the two shapes the contract's single object allows.
 */
export function login(input: LoginInput) {
  return callEndpoint("POST /api/auth/login", { body: input }) as Promise<
    LoginResponse | LoginSecondFactorResponse
  >;
}

export function useLogin() {
  return useMutation({ mutationFn: login, meta: { on401: "ignore" } });
}
