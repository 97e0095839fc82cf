import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { formatBankTime } from "@/contract/bank-time";
import { formatMoney, parseMoney } from "@/contract/money";
import { SECURITY_MESSAGES } from "@/contract/security";
import {
  SELF_LIMIT_MESSAGES,
  SEND_BLOCK_COOLDOWNS,
  SEND_BLOCK_UNDO_HOURS,
  type SelfLimits,
  type SendBlockCooldown,
} from "@/contract/self-limits";
import { DAILY_LIMIT_CENTS } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { customerLimitNotes, users } from "@/server/db/schema";
import { stepUpRequired } from "@/server/features/auth/second-factor";
import { getStepUpState } from "@/server/features/auth/step-up";
import { issueFreezeLink } from "@/server/features/security/freeze-links";
import { issueSendBlockUndoLink } from "@/server/features/security/send-block-undo";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import { dailyLimitRaiseMail, sendBlockOnMail } from "@/server/lib/mail/security-templates";
import { verifyPassword } from "@/server/lib/passwords";
import type { SessionRef } from "@/server/lib/session";

/**
 * The customer's own limits (decision 035). Every rule is a function in
 * server/db/functions/self-limits.sql: what is in force at an instant (self_limits_at, which the money path's
 * gate reads under the wallet lock), lowering and raising the daily limit, switching the send block. This file
 * parses, calls them with the server's clock and maps their answers.
 */

const inForce = z.object({
  daily_limit_cents: z.coerce.number().nullable(),
  raise_to_cents: z.coerce.number().nullable(),
  raise_at: z.coerce.date().nullable(),
  raise_pending: z.boolean(),
  sends_blocked: z.boolean(),
  block_on: z.boolean(),
  block_cooldown: z.enum(SEND_BLOCK_COOLDOWNS).nullable(),
  blocked_until: z.coerce.date().nullable(),
});

const money = (cents: number | null) => (cents === null ? null : formatMoney(cents));

/** GET /api/transfer/self-limits, and the same view for the gate's refusals and the staff note. */
export async function getSelfLimits(db: DbOrTx, userId: string, now = new Date()): Promise<SelfLimits> {
  const [row] = await queryRows(
    db,
    sql`select * from self_limits_at(${userId}::uuid, ${now.toISOString()}::timestamptz)`,
    inForce,
  );
  return {
    personalDailyLimit: money(row.daily_limit_cents),
    personalDailyLimitCents: row.daily_limit_cents,
    pendingRaise:
      row.raise_pending && row.raise_at
        ? {
            dailyLimit: money(row.raise_to_cents),
            dailyLimitCents: row.raise_to_cents,
            at: row.raise_at.toISOString(),
          }
        : null,
    sendsBlocked: row.sends_blocked,
    blockOn: row.block_on,
    cooldown: row.block_cooldown,
    blockedUntil: row.blocked_until?.toISOString() ?? null,
    blockedUntilText: row.blocked_until ? formatBankTime(row.blocked_until) : null,
  };
}

interface LimitOwner {
  id: string;
  email: string;
  firstName: string;
  isAdmin: boolean;
  /** The session asking: a step-up is fresh for this one session only. */
  session?: SessionRef | null;
}

const staffRefused = () => new AppError("staff_account", "Staff accounts have no sending limits to set");

/**
 * A change that keeps money in (lowering the limit, switching the block on or lengthening its cooldown) is what a
 * stolen session, an injected script or a shared device would use to lock a customer out of their money, so it
 * needs a fresh proof (decision 047): a second-factor step-up of this session within five minutes when one is
 * enrolled, else the account password, which a cookie alone does not carry. Checked after the input is valid.
 */
async function confirmKeepingMoneyIn(deps: AppDeps, user: LimitOwner, password: string | undefined) {
  const { db } = deps.database;
  const state = await getStepUpState(db, user.id, user.session ?? { idHash: "", publicId: "" });
  if (state.enabled) {
    if (!state.fresh) throw stepUpRequired(state.methods);
    return;
  }
  if (password === undefined) {
    throw new AppError("password_confirm_required", SELF_LIMIT_MESSAGES.passwordConfirmRequired);
  }
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  if (!row || !(await verifyPassword(row.passwordHash, password))) {
    throw new AppError("password_wrong", SECURITY_MESSAGES.passwordWrong);
  }
}

/** A dollar amount under the bank's limit, or null (or the bank's limit itself) for the bank's limit alone. */
function parseOwnLimit(input: string | number | null): number | null {
  if (input === null) return null;
  const cents = parseMoney(input);
  if (cents === null) throw new AppError("VALIDATION", "Enter a dollar amount with at most 2 decimals");
  if (cents <= 0) throw new AppError("VALIDATION", SELF_LIMIT_MESSAGES.limitPositive);
  if (cents > DAILY_LIMIT_CENTS) throw new AppError("VALIDATION", SELF_LIMIT_MESSAGES.limitAtMostBank);
  return cents === DAILY_LIMIT_CENTS ? null : cents;
}

const setLimitRow = z.object({
  outcome: z.enum(["lowered", "unchanged", "raise_scheduled"]),
  effective_at: z.coerce.date(),
});

/**
 * Lowering applies at once, after a fresh proof; a raise (or going back to the bank's limit) waits 24 hours and is
 * announced by e-mail with a "This wasn't me" link, in the same transaction.
 */
export async function setPersonalDailyLimit(
  deps: AppDeps,
  user: LimitOwner,
  input: { dailyLimit: string | number | null; password?: string },
  now = new Date(),
): Promise<{ message: string; selfLimits: SelfLimits }> {
  if (user.isAdmin) throw staffRefused();
  const cents = parseOwnLimit(input.dailyLimit);
  const inForce = (await getSelfLimits(deps.database.db, user.id, now)).personalDailyLimitCents;
  if (cents !== null && (inForce === null || cents < inForce)) {
    await confirmKeepingMoneyIn(deps, user, input.password);
  }
  const outcome = await deps.database.db.transaction(async (tx) => {
    const [row] = await queryRows(
      tx,
      sql`select outcome, effective_at from set_personal_daily_limit(${user.id}::uuid, ${cents}::bigint, ${now.toISOString()}::timestamptz)`,
      setLimitRow,
    );
    if (row.outcome === "raise_scheduled") {
      const freezeUrl = await issueFreezeLink(tx, deps, { userId: user.id, reason: "limit_raised" });
      await enqueueMail(
        tx,
        dailyLimitRaiseMail(user.email, {
          firstName: user.firstName,
          when: now,
          limit: cents === null ? `the bank's ${formatMoney(DAILY_LIMIT_CENTS)}` : formatMoney(cents),
          effectiveAt: row.effective_at,
          freezeUrl,
        }),
      );
    }
    return row.outcome;
  });
  if (outcome === "raise_scheduled") wakeMailWorker();
  const message = {
    lowered: "Your daily limit is lowered now.",
    unchanged: "Your daily limit is unchanged.",
    raise_scheduled: "Your daily limit will rise in 24 hours. We sent you an e-mail about it.",
  }[outcome];
  return { message, selfLimits: await getSelfLimits(deps.database.db, user.id, now) };
}

const setBlockRow = z.object({
  outcome: z.enum(["switched_on", "on", "cooling", "not_on", "cooldown_shorter"]),
  blocked_until: z.coerce.date().nullable(),
});

/**
 * "Block crypto sends": on at once, after a fresh proof; off starts the chosen cooldown, which nothing the customer
 * does shortens. Switching it on e-mails a "This wasn't me" link that undoes it for a few hours (decision 047),
 * written in the same transaction.
 */
export async function setSendBlock(
  deps: AppDeps,
  user: LimitOwner,
  input: { on: boolean; cooldown?: SendBlockCooldown; password?: string },
  now = new Date(),
): Promise<{ message: string; selfLimits: SelfLimits }> {
  if (user.isAdmin) throw staffRefused();
  if (input.on && !input.cooldown)
    throw new AppError("VALIDATION", "Choose how long the block lasts after you turn it off");
  if (input.on) await confirmKeepingMoneyIn(deps, user, input.password);
  const outcome = await deps.database.db.transaction(async (tx) => {
    const [row] = await queryRows(
      tx,
      sql`select outcome, blocked_until from set_send_block(${user.id}::uuid, ${input.on}, ${input.cooldown ?? null}::text, ${now.toISOString()}::timestamptz)`,
      setBlockRow,
    );
    if (row.outcome === "cooldown_shorter")
      throw new AppError("cooldown_shorter", SELF_LIMIT_MESSAGES.cooldownShorter);
    if (row.outcome === "switched_on" && input.cooldown) {
      const undoUrl = await issueSendBlockUndoLink(tx, deps, {
        userId: user.id,
        previousBlockedUntil: row.blocked_until,
      });
      await enqueueMail(
        tx,
        sendBlockOnMail(user.email, {
          firstName: user.firstName,
          when: now,
          cooldown: input.cooldown,
          undoHours: SEND_BLOCK_UNDO_HOURS,
          undoUrl,
        }),
      );
    }
    return row.outcome;
  });
  if (outcome === "switched_on") wakeMailWorker();
  const message = {
    switched_on: "Crypto sends are blocked. We sent you an e-mail about it.",
    on: "Crypto sends are blocked.",
    cooling: "The block will end when its cooldown has run. No one can end it sooner.",
    not_on: "Crypto sends are not blocked.",
  }[outcome];
  return { message, selfLimits: await getSelfLimits(deps.database.db, user.id, now) };
}

/** Staff record a note on a customer's limits; they never change them (no route does). Audited. */
export async function addSelfLimitNote(
  deps: AppDeps,
  staffId: string,
  userId: string,
  note: string,
): Promise<{
  selfLimits: SelfLimits;
  notes: { id: string; note: string; staffId: string | null; createdAt: string }[];
}> {
  const { db } = deps.database;
  return db.transaction(async (tx) => {
    const [customer] = await queryRows(
      tx,
      sql`select id from users where id = ${userId}::uuid and cardinality(staff_roles) = 0`,
      z.object({ id: z.string() }),
    );
    if (!customer) throw new AppError("NOT_FOUND", "Customer not found");
    const [created] = await tx
      .insert(customerLimitNotes)
      .values({ userId, staffId, note })
      .returning({ id: customerLimitNotes.id });
    await writeAudit(tx, {
      actorId: staffId,
      action: "self_limits.note",
      targetType: "user",
      targetId: userId,
      after: { noteId: created!.id },
    });
    const notes = await queryRows(
      tx,
      sql`select id, note, staff_id, created_at from customer_limit_notes where user_id = ${userId}::uuid order by created_at desc, id limit 50`,
      z.object({
        id: z.string(),
        note: z.string(),
        staff_id: z.string().nullable(),
        created_at: z.coerce.date(),
      }),
    );
    return {
      selfLimits: await getSelfLimits(tx, userId),
      notes: notes.map((n) => ({
        id: n.id,
        note: n.note,
        staffId: n.staff_id,
        createdAt: n.created_at.toISOString(),
      })),
    };
  });
}
