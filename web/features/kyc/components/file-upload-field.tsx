import { useMutation } from "@tanstack/react-query";
import { AlertCircle, CheckCircle2, FileUp, RotateCcw } from "lucide-react";
import { type ChangeEvent, useId, useState } from "react";
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_CONTENT_TYPES,
  type DocumentType,
  KYC_MESSAGES,
  MAX_UPLOAD_BYTES,
  PDF_CONTENT_TYPE,
} from "@/contract/kyc";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { uploadFile } from "@/web/features/kyc/api/upload-file";
import { isUnauthorized } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";

/** A file upload's states. */
export type UploadState = "idle" | "uploading" | "success" | "error";

export interface FileUploadFieldProps {
  id: string;
  label: string;
  /** Decides what is accepted: licence sides take images only; LLC and EIN documents images or PDF. */
  documentType: DocumentType;
  /** The stored `/objects/…` path, or "" while nothing is uploaded. */
  value: string;
  isInvalid?: boolean;
  /** Called with the uploaded file's path; may do more (attach it to an existing KYC record). */
  onUploaded: (path: string) => Promise<void> | void;
}

function isAllowedType(file: File, documentType: DocumentType): boolean {
  return (ACCEPTED_CONTENT_TYPES[documentType] as readonly string[]).includes(file.type);
}

/** One document: choose a file, upload it straight to storage, show idle / uploading / success / error. */
export function FileUploadField({
  id,
  label,
  documentType,
  value,
  isInvalid = false,
  onUploaded,
}: FileUploadFieldProps) {
  const hintId = useId();
  const [fileName, setFileName] = useState("");
  const [error, setError] = useState("");
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const path = await uploadFile(file);
      await onUploaded(path);
      return path;
    },
    // /apply-checking: signed out here means an Unauthorized toast and /.
    meta: { on401: "home" },
  });

  const state: UploadState = upload.isPending ? "uploading" : error ? "error" : value ? "success" : "idle";
  /** Submitted without this document: said under the field too, beside the spec's toast. */
  const isMissing = isInvalid && state === "idle";
  const allowsPdf = ACCEPTED_CONTENT_TYPES[documentType].includes(PDF_CONTENT_TYPE);
  const kinds = allowsPdf ? "JPG, PNG, WebP, GIF or PDF" : "JPG, PNG, WebP or GIF";

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after a failure.
    event.target.value = "";
    if (!file) return;
    setFileName(file.name);
    if (!isAllowedType(file, documentType)) {
      const message = allowsPdf ? KYC_MESSAGES.documentImageOrPdf : KYC_MESSAGES.licenseImagesOnly;
      setError(message);
      toast({ title: "Unsupported file type", description: message, variant: "destructive" });
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(KYC_MESSAGES.fileTooLarge);
      toast({ title: "File too large", description: KYC_MESSAGES.fileTooLarge, variant: "destructive" });
      return;
    }
    setError("");
    upload.mutate(file, {
      onError: (err) => {
        if (isUnauthorized(err)) return;
        const message = err instanceof Error && err.message ? err.message : "Upload failed";
        setError(message);
        toast({ title: "Upload Failed", description: message, variant: "destructive" });
      },
    });
  };

  return (
    <div className="grid gap-1.5">
      <span className="text-sm font-medium text-ink" id={`${id}-label`}>
        {label}
      </span>
      <input
        id={id}
        type="file"
        accept={ACCEPT_ATTRIBUTE[documentType]}
        className="peer sr-only"
        onChange={onChange}
        disabled={state === "uploading"}
        aria-labelledby={`${id}-label`}
        aria-describedby={isMissing ? `${hintId} ${id}-error` : hintId}
        aria-invalid={isInvalid && state !== "success" ? true : undefined}
      />
      <label
        htmlFor={id}
        className={cn(
          "flex min-h-20 cursor-pointer items-center gap-3 rounded-lg border border-dashed p-4 transition-colors peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500",
          state === "success" && "border-positive/40 bg-positive-soft/40",
          state === "error" && "border-negative/50 bg-negative-soft/40",
          state === "uploading" && "cursor-wait border-brand-200 bg-brand-50/60",
          state === "idle" &&
            (isInvalid
              ? "border-negative/60 bg-surface hover:bg-canvas"
              : "border-line bg-surface hover:border-brand-200 hover:bg-brand-50/40"),
        )}
      >
        <span
          className={cn(
            "flex size-10 shrink-0 items-center justify-center rounded-full",
            state === "success" && "bg-positive-soft text-positive",
            state === "error" && "bg-negative-soft text-negative",
            (state === "idle" || state === "uploading") && "bg-brand-50 text-brand-700",
          )}
        >
          {state === "uploading" ? (
            <Spinner className="size-5" label={`Uploading ${label}`} />
          ) : state === "success" ? (
            <CheckCircle2 className="size-5" aria-hidden />
          ) : state === "error" ? (
            <AlertCircle className="size-5" aria-hidden />
          ) : (
            <FileUp className="size-5" aria-hidden />
          )}
        </span>
        <span id={hintId} className="grid min-w-0 flex-1 gap-0.5" aria-live="polite">
          {state === "uploading" ? (
            <>
              <span className="text-sm font-medium text-ink">Uploading…</span>
              <span className="truncate text-xs text-ink-muted">{fileName}</span>
            </>
          ) : state === "success" ? (
            <>
              <span className="text-sm font-medium text-positive">Uploaded</span>
              <span className="truncate text-xs text-ink-muted">{fileName || "Document on file"}</span>
            </>
          ) : state === "error" ? (
            <>
              <span className="text-sm font-medium break-words text-negative">{error}</span>
              <span className="truncate text-xs text-ink-muted">{fileName}</span>
            </>
          ) : (
            <>
              <span className="text-sm font-medium text-ink">Choose a file</span>
              <span className="text-xs text-ink-muted">{kinds}, up to 10 MB</span>
            </>
          )}
        </span>
        {state === "success" || state === "error" ? (
          <span className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-brand-700">
            <RotateCcw className="size-4" aria-hidden />
            {state === "error" ? "Try again" : "Replace"}
          </span>
        ) : null}
      </label>
      {isMissing ? (
        <p id={`${id}-error`} className="text-sm text-negative">
          Please upload this document
        </p>
      ) : null}
    </div>
  );
}
