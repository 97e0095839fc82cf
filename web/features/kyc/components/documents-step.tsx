import { ShieldCheck } from "lucide-react";
import type { DocumentType } from "@/contract/kyc";
import { type ApplicationForm, documentsFor } from "@/web/features/kyc/application-form";
import { FileUploadField } from "@/web/features/kyc/components/file-upload-field";

const LABELS: Record<DocumentType, string> = {
  drivingLicenseFront: "Driving license (front)",
  drivingLicenseBack: "Driving license (back)",
  llcDocument: "LLC document",
  einDocument: "EIN document",
};

const LICENSE: DocumentType[] = ["drivingLicenseFront", "drivingLicenseBack"];

export function DocumentsStep({
  form,
  missing,
  onUploaded,
}: {
  form: ApplicationForm;
  /** Documents to flag after a submit with gaps. */
  missing: ReadonlySet<DocumentType>;
  onUploaded: (documentType: DocumentType, path: string) => Promise<void> | void;
}) {
  const business = documentsFor(form.accountType).filter((d) => !LICENSE.includes(d));

  const field = (documentType: DocumentType) => (
    <FileUploadField
      key={documentType}
      id={`kyc-${documentType}`}
      label={LABELS[documentType]}
      documentType={documentType}
      value={form[documentType]}
      isInvalid={missing.has(documentType)}
      onUploaded={(path) => onUploaded(documentType, path)}
    />
  );

  return (
    <div className="grid gap-6">
      <section className="grid gap-3" aria-labelledby="kyc-id-documents">
        <div className="grid gap-0.5">
          <h3 id="kyc-id-documents" className="text-sm font-semibold text-ink">
            Driving license
          </h3>
          <p className="text-xs text-ink-muted">A clear photo of each side. Images only.</p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">{LICENSE.map(field)}</div>
      </section>
      {business.length > 0 ? (
        <section className="grid gap-3" aria-labelledby="kyc-business-documents">
          <div className="grid gap-0.5">
            <h3 id="kyc-business-documents" className="text-sm font-semibold text-ink">
              Business documents
            </h3>
            <p className="text-xs text-ink-muted">
              Your LLC formation document and EIN letter, as an image or PDF.
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">{business.map(field)}</div>
        </section>
      ) : null}
      <p className="flex items-start gap-2 text-xs text-ink-muted">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
        Each file up to 10 MB. Documents are stored privately and seen only by our verification team.
      </p>
    </div>
  );
}
