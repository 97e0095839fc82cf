import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { AUTH_MESSAGES } from "@/contract/auth";
import { AppError } from "@/server/lib/errors";
import { Semaphore } from "@/server/lib/semaphore";

// Algorithm.Argon2id is a const enum (2) that isolatedModules cannot inline; OWASP's argon2id minimum: 19 MiB, t=2, p=1.
const ARGON2ID = 2;
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes at once, at most one per core: each holds 19 MiB while it runs, and more of them than cores only
 * queue inside libuv's thread pool (4 threads) with their memory already taken. With MALLOC_ARENA_MAX=2 it
 * took the login bench's peak RSS from 336 to 239 MiB on 2 cores, at no fewer logins per second.
 */
const hashSlots = new Semaphore(Math.max(1, Math.min(availableParallelism(), 4)));

export function hashPassword(password: string): Promise<string> {
  return hashSlots.run(() => hash(password, HASH_OPTIONS));
}

/** False for a wrong password or an unreadable hash; never throws on bad input. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashSlots.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends one argon2 verify for an unknown e-mail, so response time does not reveal which accounts exist. */
export async function spendPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("pillar-timing-equaliser-not-a-real-password");
  await verifyPassword(await dummyHash, password);
}

/**
 * Refuses passwords a guessing attack would find quickly (zxcvbn score 0 or 1). The dictionaries cost
 * ~65 MB of memory once built, so they load on the first password set, not at start: an instance that
 * only serves polls and transfers never holds them.
 */
export async function assertPasswordNotCommon(password: string, userInputs: string[] = []): Promise<void> {
  const { checkPasswordStrength } = await import("@/contract/password-strength");
  if (checkPasswordStrength(password, userInputs).isTooCommon) {
    throw new AppError("common_password", AUTH_MESSAGES.commonPassword);
  }
}
