import { useMutation } from "@tanstack/react-query";
import type { LoginInput, LoginResponse } from "@/contract/auth";
import type { LoginSecondFactorResponse } from "@/contract/security";
import { apiRequest } from "@/web/lib/api";

/**
 * POST /api/auth/login. A 401 here means wrong credentials, not a lost session. With a second factor on,
 * the answer asks for it instead of signing in.
 */
export function login(input: LoginInput) {
  return apiRequest<LoginResponse | LoginSecondFactorResponse>("POST", "/api/auth/login", input);
}

export function useLogin() {
  return useMutation({ mutationFn: login, meta: { on401: "ignore" } });
}
