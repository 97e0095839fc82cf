import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, ArrowRight, Check, Info, Send } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { Link } from "wouter";
import { type DocumentType, KYC_MESSAGES, type KycApplication } from "@/contract/kyc";
import { focusFieldInError } from "@/web/components/form-field";
import { dismissFieldToast, toastFieldError } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useCreateKycApplication } from "@/web/features/kyc/api/create-kyc-application";
import { KYC_STATUS_KEY } from "@/web/features/kyc/api/get-kyc-status";
import { uploadKycDocument } from "@/web/features/kyc/api/upload-kyc-document";
import {
  type ApplicationForm,
  checkDocuments,
  checkPersonalInfo,
  EMPTY_FORM,
  type TextField,
  toCreateKycInput,
} from "@/web/features/kyc/application-form";
import { DocumentsStep } from "@/web/features/kyc/components/documents-step";
import { PersonalInfoStep } from "@/web/features/kyc/components/personal-info-step";
import { type SubmitError, SubmitErrorMessage } from "@/web/features/kyc/components/submit-error-message";
import { failureOf, isUnauthorized, unhandledReason } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";

const FIELD_REQUIRED = "This field is required";

const STEPS = [
  { title: "Personal information", description: "Tell us who you are and where you live." },
  { title: "Documents", description: "Upload your identity documents." },
] as const;

/** A rejected application's details carry over (never its SSN or documents), so a new one starts half done. */
function startingForm(previous: KycApplication | null): ApplicationForm {
  if (!previous) return EMPTY_FORM;
  return {
    ...EMPTY_FORM,
    accountType: previous.accountType,
    companyName: previous.companyName ?? "",
    firstName: previous.firstName,
    lastName: previous.lastName,
    street: previous.street,
    city: previous.city,
    state: previous.state,
    zipCode: previous.zipCode,
  };
}

export function toSubmitError(error: unknown): SubmitError {
  const other: SubmitError = {
    kind: "other",
    message: (error instanceof Error && error.message) || KYC_MESSAGES.submitFailed,
  };
  const reason = failureOf("POST /api/kyc/create", error);
  switch (reason) {
    case "phone_number_required":
      return { kind: "phone" };
    case "ssn_duplicate":
      return { kind: "ssn" };
    case "application_exists":
    case "staff_account":
    case "service_unavailable":
    case "name_characters_invalid":
    case "state_invalid":
    case undefined:
      return other;
    default:
      return unhandledReason(reason, other);
  }
}

function StepIndicator({ step }: { step: 1 | 2 }) {
  return (
    <ol className="grid grid-cols-2 gap-2" aria-label="Application progress">
      {STEPS.map((s, i) => {
        const number = i + 1;
        const isDone = number < step;
        const isCurrent = number === step;
        return (
          <li key={s.title} className="grid gap-2" aria-current={isCurrent ? "step" : undefined}>
            <span
              className={cn("h-1.5 rounded-full", number <= step ? "bg-brand-700" : "bg-line")}
              aria-hidden
            />
            <span className="flex items-center gap-2 text-xs font-medium sm:text-sm">
              <span
                className={cn(
                  "flex size-6 shrink-0 items-center justify-center rounded-full text-xs",
                  isDone && "bg-brand-700 text-white",
                  isCurrent && "bg-brand-800 text-white",
                  !isDone && !isCurrent && "bg-canvas text-ink-muted ring-1 ring-line",
                )}
              >
                {isDone ? <Check className="size-3.5" aria-label="Done" /> : number}
              </span>
              <span className={isCurrent ? "text-ink" : "text-ink-muted"}>{s.title}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function ApplicationWizard({
  previous,
  hasKycRecord,
  hasPhoneNumber,
  onSubmitted,
}: {
  /** The rejected application being replaced, if any. */
  previous: KycApplication | null;
  /** After an upload, POST /api/kyc/upload-document when a KYC record exists. */
  hasKycRecord: boolean;
  hasPhoneNumber: boolean;
  onSubmitted: () => void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ApplicationForm>(() => startingForm(previous));
  const [step, setStep] = useState<1 | 2>(1);
  const [missingText, setMissingText] = useState<ReadonlyMap<TextField, string>>(new Map());
  const [missingDocs, setMissingDocs] = useState<ReadonlySet<DocumentType>>(new Set());
  const [submitError, setSubmitError] = useState<SubmitError | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const create = useCreateKycApplication();

  const goTo = (next: 1 | 2) => {
    setStep(next);
    setSubmitError(null);
    // Move focus to the new step's heading so keyboard and screen-reader users land on it.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const onField = (field: TextField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    dismissFieldToast();
    setMissingText((m) => {
      if (!m.has(field)) return m;
      const next = new Map(m);
      next.delete(field);
      return next;
    });
  };

  const onUploaded = async (documentType: DocumentType, path: string) => {
    if (hasKycRecord) {
      // Best effort: a reviewed record refuses new documents (kycNotEditable), and the new application
      // carries the path anyway.
      await uploadKycDocument({ documentType, documentUrl: path }).catch(() => undefined);
    }
    setForm((f) => ({ ...f, [documentType]: path }));
    dismissFieldToast();
    setMissingDocs((m) => {
      if (!m.has(documentType)) return m;
      const next = new Set(m);
      next.delete(documentType);
      return next;
    });
  };

  const onNext = () => {
    const problem = checkPersonalInfo(form);
    if (problem) {
      // An empty field says "required"; a malformed one repeats the toast's rule (state, ZIP, SSN).
      const inline = problem.isMissing ? FIELD_REQUIRED : problem.message;
      setMissingText(new Map(problem.fields.map((f) => [f, inline])));
      toastFieldError(problem.message);
      focusFieldInError(`kyc-${problem.fields[0]}`);
      return;
    }
    setMissingText(new Map());
    goTo(2);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 1) return onNext();
    const problem = checkDocuments(form);
    if (problem) {
      setMissingDocs(new Set(problem.fields));
      toastFieldError(problem.message);
      focusFieldInError(`kyc-${problem.fields[0]}`);
      return;
    }
    setSubmitError(null);
    create.mutate(toCreateKycInput(form), {
      onSuccess: () => {
        toast({
          title: "Application Submitted",
          description: "We'll review it within 24 hours. Taking you to your dashboard…",
        });
        onSubmitted();
      },
      onError: (error) => {
        if (isUnauthorized(error)) return;
        if (failureOf("POST /api/kyc/create", error) === "application_exists") {
          toast({ title: "Application in progress", description: error.message });
          void queryClient.invalidateQueries({ queryKey: KYC_STATUS_KEY });
          return;
        }
        const mapped = toSubmitError(error);
        setSubmitError(mapped);
        if (mapped.kind === "other") {
          toast({ title: "Submission Failed", description: mapped.message, variant: "destructive" });
        }
      },
    });
  };

  const current = STEPS[step - 1];
  return (
    <Card>
      <CardHeader className="gap-5">
        <StepIndicator step={step} />
        <div className="grid gap-1">
          <CardTitle className="text-lg">
            <span ref={headingRef} tabIndex={-1} className="rounded-sm">
              Step {step} of 2: {current.title}
            </span>
          </CardTitle>
          <CardDescription>{current.description}</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <form className="grid gap-6" onSubmit={onSubmit} noValidate aria-label="Checking account application">
          {!hasPhoneNumber && step === 1 ? (
            <p className="flex items-start gap-2 rounded-lg bg-pending-soft p-3 text-sm text-pending">
              <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
              <span>
                {KYC_MESSAGES.phoneRequired}.{" "}
                <Link href="/settings" className="font-medium underline underline-offset-2">
                  Add it now
                </Link>
              </span>
            </p>
          ) : null}
          {step === 1 ? (
            <PersonalInfoStep
              form={form}
              missing={missingText}
              onAccountType={(accountType) => setForm((f) => ({ ...f, accountType }))}
              onField={onField}
            />
          ) : (
            <DocumentsStep form={form} missing={missingDocs} onUploaded={onUploaded} />
          )}
          {submitError ? <SubmitErrorMessage error={submitError} /> : null}
          <div className="flex flex-col-reverse gap-3 border-t border-line pt-6 sm:flex-row sm:justify-between">
            {step === 2 ? (
              <Button variant="secondary" onClick={() => goTo(1)} disabled={create.isPending}>
                <ArrowLeft aria-hidden />
                Previous
              </Button>
            ) : (
              <span className="hidden sm:block" />
            )}
            {step === 1 ? (
              <Button type="submit">
                Next
                <ArrowRight aria-hidden />
              </Button>
            ) : (
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? (
                  <Spinner className="size-4 text-white" label="Submitting" />
                ) : (
                  <Send aria-hidden />
                )}
                {create.isPending ? "Submitting…" : "Submit Application"}
              </Button>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
