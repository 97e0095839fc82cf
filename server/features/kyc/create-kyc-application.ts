import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { type CreateKycInput, type CreateKycResponse, canApply, KYC_MESSAGES } from "@/contract/kyc";
import { STAFF_MANAGEMENT_MESSAGES } from "@/contract/staff";
import type { AppDeps } from "@/server/app-deps";
import { accountRequests, kycApplications, users } from "@/server/db/schema";
import { customerNames } from "@/server/features/compliance/rescreen";
import { findSanctionsHits, recordHits } from "@/server/features/compliance/screen";
import { findCurrentOnboarding } from "@/server/features/kyc/get-kyc-status";
import { toAccountRequest, toKycApplication } from "@/server/features/kyc/kyc-views";
import { resolveDocuments } from "@/server/features/kyc/resolve-documents";
import { writeAudit } from "@/server/lib/audit";
import { blindIndex, encryptField } from "@/server/lib/crypto";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";
import { applicationReceivedMail } from "@/server/lib/mail/onboarding-templates";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import type { SessionUser } from "@/server/lib/session";

export const SSN_INDEX_LABEL = "ssn";

export const phoneRequiredError = () => new AppError("phone_number_required", KYC_MESSAGES.phoneRequired);
export const staffCannotBank = () => new AppError("staff_account", STAFF_MANAGEMENT_MESSAGES.staffCannotBank);
const ssnDuplicateError = () => new AppError("ssn_duplicate", KYC_MESSAGES.ssnDuplicate);

/**
 * Submits a KYC application and opens a pending account request, in one transaction. Allowed when the user
 * has none yet, or the current KYC or account request was rejected; the older ones are kept as history.
 */
export async function createKycApplication(
  deps: AppDeps,
  user: SessionUser,
  input: CreateKycInput,
): Promise<CreateKycResponse> {
  if (!user.phoneNumber) throw phoneRequiredError();
  const isBusiness = input.accountType === "business";
  const documents = await resolveDocuments(deps, user.id, {
    drivingLicenseFront: input.drivingLicenseFront,
    drivingLicenseBack: input.drivingLicenseBack,
    ...(isBusiness ? { llcDocument: input.llcDocument, einDocument: input.einDocument } : {}),
  });
  const { dataKey } = deps.config;
  const ssnIndex = blindIndex(dataKey, SSN_INDEX_LABEL, input.ssn);
  // Sanctions screening at submission (names, the company, the date of birth): a hit is filed with the
  // application, and the applicant sees the same "pending" as anyone else.
  const hits = await findSanctionsHits(
    deps.database.db,
    {
      names: customerNames(user, {
        firstName: input.firstName,
        lastName: input.lastName,
        companyName: isBusiness ? input.companyName : null,
        dateOfBirth: input.dateOfBirth,
      }),
    },
    deps.config.sanctionsNameThreshold,
  );

  try {
    const result = await deps.database.db.transaction(async (tx) => {
      // One submission per user at a time: the user row is the lock two racing submits queue on.
      const [locked] = await tx
        .select({ staffRoles: users.staffRoles })
        .from(users)
        .where(eq(users.id, user.id))
        .for("update");
      // Roles as they are now (a grant takes the same lock): staff never bank, so they never apply.
      if ((locked?.staffRoles.length ?? 0) > 0) throw staffCannotBank();
      const current = await findCurrentOnboarding(tx, user.id);
      if (!canApply({ kyc: current.kyc, accountRequest: current.accountRequest })) {
        const approved = current.kyc?.status === "approved" && current.accountRequest?.status === "approved";
        throw new AppError(
          "application_exists",
          approved ? KYC_MESSAGES.applicationApproved : KYC_MESSAGES.applicationExists,
        );
      }
      const [taken] = await tx
        .select({ id: kycApplications.id })
        .from(kycApplications)
        .where(
          and(
            eq(kycApplications.ssnIndex, ssnIndex),
            isNull(kycApplications.supersededAt),
            ne(kycApplications.status, "rejected"),
            ne(kycApplications.userId, user.id),
          ),
        )
        .limit(1);
      if (taken) throw ssnDuplicateError();

      await tx
        .update(kycApplications)
        .set({ supersededAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(kycApplications.userId, user.id), isNull(kycApplications.supersededAt)));
      await tx
        .update(accountRequests)
        .set({ supersededAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(accountRequests.userId, user.id), isNull(accountRequests.supersededAt)));

      const [kyc] = await tx
        .insert(kycApplications)
        .values({
          userId: user.id,
          accountType: input.accountType,
          companyName: isBusiness ? input.companyName : null,
          firstName: input.firstName,
          lastName: input.lastName,
          dateOfBirth: input.dateOfBirth,
          street: input.street,
          city: input.city,
          state: input.state,
          zipCode: input.zipCode,
          // Built from the checked fields, never taken as sent: statements print this line, and a free-text
          // address could carry a state the form refuses ("…, ZZ 00000").
          address: `${input.street}, ${input.city}, ${input.state} ${input.zipCode}`,
          ssnCiphertext: encryptField(dataKey, input.ssn),
          ssnIndex,
          ssnLast4: input.ssn.slice(-4),
          drivingLicenseFront: documents.drivingLicenseFront ?? null,
          drivingLicenseBack: documents.drivingLicenseBack ?? null,
          llcDocument: documents.llcDocument ?? null,
          einDocument: documents.einDocument ?? null,
        })
        .returning();
      const [accountRequest] = await tx
        .insert(accountRequests)
        .values({ userId: user.id, kycApplicationId: kyc!.id, accountType: input.accountType })
        .returning();

      await writeAudit(tx, {
        actorId: user.id,
        action: "kyc.submit",
        targetType: "kyc_application",
        targetId: kyc!.id,
        before: current.kyc ? { kycId: current.kyc.id, status: current.kyc.status } : null,
        after: {
          accountType: input.accountType,
          ssnLast4: kyc!.ssnLast4,
          accountRequestId: accountRequest!.id,
          documents,
        },
      });
      if (hits.length > 0) await recordHits(tx, { userId: user.id, point: "kyc", hits });
      await enqueueMail(tx, applicationReceivedMail(user.email, user.firstName));
      return { kyc: kyc!, accountRequest: accountRequest! };
    });
    wakeMailWorker();
    return {
      message: KYC_MESSAGES.submitted,
      kyc: toKycApplication(result.kyc),
      accountRequest: toAccountRequest(result.accountRequest),
    };
  } catch (err) {
    // The unique indexes catch what a concurrent request slipped past the checks above.
    if (pgErrorCode(err) === "23505") {
      const constraint = pgConstraint(err);
      if (constraint === "kyc_applications_ssn_live_key") throw ssnDuplicateError();
      throw new AppError("application_exists", KYC_MESSAGES.applicationExists);
    }
    throw err;
  }
}
