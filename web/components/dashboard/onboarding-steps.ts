import type { OnboardingState } from "@/contract/kyc";

export type StepState = "done" | "current" | "failed" | "upcoming";
export type Tone = "positive" | "negative" | "pending" | "neutral";

export interface OnboardingStep {
  key: "identity" | "account";
  title: string;
  state: StepState;
  badge: { label: string; tone: Tone };
  text: string;
  /** The rejection reason or the reviewer's message, when there is one. */
  reason?: string;
}

export interface OnboardingView {
  /** 'Checking Account: Not Available' before any application, else the (admin-editable) status title. */
  title: string;
  steps: [OnboardingStep, OnboardingStep];
  /** The spec's link for this state, if any. */
  action: { label: "Apply Checking Account" | "Submit New Application"; href: "/apply-checking" } | null;
}

// The onboarding texts, as the product words them.
const KYC_PENDING = "Your application is under review. Review can take up to 24 hours.";
const REJECTED = "Your application was not approved. You can submit a new application.";
const APPROVED = "Congratulations! Your account has been approved";

/**
 * The dashboard's onboarding timeline (identity check → account opened) from the customer's real state,
 * so no step ever says "Pending" beside another that says "Rejected".
 */
export function onboardingView(
  state: OnboardingState,
  labels: { statusTitle: string; statusMessage: string },
): OnboardingView {
  const { kyc, accountRequest: request } = state;
  if (!kyc && !request) {
    return {
      title: "Checking Account: Not Available",
      steps: [
        {
          key: "identity",
          title: "Identity check",
          state: "current",
          badge: { label: "Not Started", tone: "neutral" },
          text: "Verify your identity to open your free checking account.",
        },
        {
          key: "account",
          title: "Account opened",
          state: "upcoming",
          badge: { label: "Not Available", tone: "neutral" },
          text: "Your checking account opens once your identity is verified.",
        },
      ],
      action: { label: "Apply Checking Account", href: "/apply-checking" },
    };
  }

  const identity: OnboardingStep =
    kyc?.status === "rejected"
      ? {
          key: "identity",
          title: "Identity check",
          state: "failed",
          badge: { label: "Rejected", tone: "negative" },
          text: REJECTED,
          reason: kyc.adminNotes ?? undefined,
        }
      : // The identity step reads the identity check alone: an account opened earlier never makes a
        // reopened (pending) check look verified.
        kyc?.status === "approved"
        ? {
            key: "identity",
            title: "Identity check",
            state: "done",
            badge: { label: "Verified", tone: "positive" },
            text: "Your identity is verified.",
          }
        : {
            key: "identity",
            title: "Identity check",
            state: "current",
            badge: { label: "Pending Review", tone: "pending" },
            text: KYC_PENDING,
          };

  const account: OnboardingStep =
    request?.status === "approved"
      ? {
          key: "account",
          title: "Account opened",
          state: "done",
          badge: { label: "Approved", tone: "positive" },
          text: request.statusMessage || APPROVED,
        }
      : request?.status === "rejected"
        ? {
            key: "account",
            title: "Account opened",
            state: "failed",
            badge: { label: "Rejected", tone: "negative" },
            text: REJECTED,
            reason: request.statusMessage ?? undefined,
          }
        : identity.state === "failed"
          ? {
              key: "account",
              title: "Account opened",
              state: "upcoming",
              badge: { label: "Not Opened", tone: "neutral" },
              text: "Your account can open once a new application is approved.",
            }
          : identity.state === "done"
            ? {
                key: "account",
                title: "Account opened",
                state: "current",
                badge: { label: request?.status === "in_review" ? "In Review" : "Pending", tone: "pending" },
                text: request?.statusMessage || labels.statusMessage,
              }
            : {
                // Both are reviewed together: the request waits on the identity check.
                key: "account",
                title: "Account opened",
                state: "upcoming",
                badge: { label: "Pending", tone: "pending" },
                text: request?.statusMessage || labels.statusMessage,
              };

  const isRejected = identity.state === "failed" || account.state === "failed";
  return {
    title: labels.statusTitle,
    steps: [identity, account],
    action: isRejected ? { label: "Submit New Application", href: "/apply-checking" } : null,
  };
}
