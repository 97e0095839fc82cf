import type { HitScoreParts } from "@/contract/compliance";

const DOB_LABELS: Record<HitScoreParts["dob"], string> = {
  exact: "same date",
  near: "near (swap, a year off or in range)",
  far: "far apart",
  unknown: "not compared",
};

const signed = (n: number) => (n > 0 ? `+${n.toFixed(2)}` : n < 0 ? `−${Math.abs(n).toFixed(2)}` : "0.00");

/** What one part says, in words a reviewer reads without the matcher's code: the hit card and the list search. */
export function describeScoreParts(parts: HitScoreParts): [string, string][] {
  return [
    ["Name", parts.name.toFixed(3)],
    ["Sound", parts.phonetic > 0 ? parts.phonetic.toFixed(3) : "not used"],
    [
      "Date of birth",
      `${DOB_LABELS[parts.dob]}${parts.dobAdjustment !== 0 ? ` (${signed(parts.dobAdjustment)})` : ""}`,
    ],
    ["Listed as", parts.listedType],
    ["Alias", parts.weakAlias ? "weak alias (scored lower)" : "primary or strong alias"],
  ];
}

/** Why a listed name scored what it did: one line of terms, wrapping on a phone. */
export function ScoreParts({ parts, label }: { parts: HitScoreParts; label: string }) {
  return (
    <dl aria-label={label} className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {describeScoreParts(parts).map(([term, value]) => (
        <div key={term} className="flex gap-1">
          <dt className="text-ink-muted">{term}</dt>
          <dd className="font-medium tabular-nums text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
