import { alertEvidenceFacts } from "@/contract/alert-evidence-text";

const sentence = (label: string) => label.charAt(0).toUpperCase() + label.slice(1);

/** What a monitoring rule saw, one fact a line (the SAR's words): label, then value. */
export function AlertEvidence({ evidence }: { evidence: Record<string, unknown> }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {alertEvidenceFacts(evidence).map(([label, value]) => (
        <div key={label} className="grid sm:contents">
          <dt className="text-ink-muted">{sentence(label)}</dt>
          <dd className="break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
