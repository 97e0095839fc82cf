import type { SecondFactorMethod, SecondFactorProof } from "@/contract/security";
import { ApiError, callEndpoint } from "@/web/lib/api";

/** POST /api/auth/step-up: marks this session as freshly verified for five minutes. */
export function stepUp(secondFactor: SecondFactorProof) {
  return callEndpoint("POST /api/auth/step-up", { body: { secondFactor } });
}

/** POST /api/auth/step-up/passkey-options. */
export function getStepUpPasskeyOptions() {
  return callEndpoint("POST /api/auth/step-up/passkey-options");
}

export function isStepUpRequired(error: unknown): error is ApiError {
  return error instanceof ApiError && error.reason === "step_up_required";
}

export function methodsOf(error: unknown): SecondFactorMethod[] {
  const methods = error instanceof ApiError ? error.flags.methods : undefined;
  return Array.isArray(methods) ? (methods as SecondFactorMethod[]) : ["totp", "recovery"];
}

export interface StepUpRequest {
  methods: SecondFactorMethod[];
  resolve: () => void;
  reject: (error: Error) => void;
}

let pending: StepUpRequest | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** The step-up dialog host subscribes here (useSyncExternalStore). */
export const stepUpStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => pending,
  settle(outcome: "verified" | "cancelled") {
    const request = pending;
    pending = null;
    notify();
    if (outcome === "verified") request?.resolve();
    else request?.reject(new ApiError(403, "Verification cancelled", { stepUpCancelled: true }));
  },
};

/** Opens the app's step-up dialog; resolves once the session is verified, rejects when the person cancels. */
export function requestStepUp(methods: SecondFactorMethod[]): Promise<void> {
  pending?.reject(new ApiError(403, "Verification cancelled", { stepUpCancelled: true }));
  return new Promise<void>((resolve, reject) => {
    pending = { methods, resolve, reject };
    notify();
  });
}

/** Runs a call; when the server asks for a fresh second-factor proof, asks for it once and runs the call again. */
export async function withStepUp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isStepUpRequired(error)) throw error;
    await requestStepUp(methodsOf(error));
    return call();
  }
}

export function isStepUpCancelled(error: unknown): boolean {
  // Set by this file, never by the server: the person closed the step-up dialog.
  return error instanceof ApiError && error.flags.stepUpCancelled === true;
}
