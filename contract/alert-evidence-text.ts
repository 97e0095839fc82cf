import { formatMoney } from "@/contract/money";

/** How many events of a list the line names before it says "and N more": the JSON keeps them all. */
const EVENTS_SHOWN = 10;

const isCents = (key: string, value: unknown): value is number =>
  /Cents$/.test(key) && typeof value === "number" && Number.isSafeInteger(value);

function words(key: string): string {
  return key
    .replace(/Cents$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** A monitoring event as the rules record it ({ kind, at, amountCents, … }), in a few words. */
function eventText(value: unknown): string {
  if (!value || typeof value !== "object") return String(value);
  const e = value as Record<string, unknown>;
  const parts = [
    typeof e.kind === "string" ? e.kind : "event",
    isCents("amountCents", e.amountCents) ? formatMoney(e.amountCents) : null,
    typeof e.at === "string" ? `on ${e.at.slice(0, 10)}` : null,
    typeof e.address === "string" ? `to ${e.address}` : null,
  ];
  return parts.filter(Boolean).join(" ");
}

function valueText(key: string, value: unknown): string {
  if (isCents(key, value)) return formatMoney(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, EVENTS_SHOWN).map(eventText).join(", ");
    const more = value.length > EVENTS_SHOWN ? ` and ${value.length - EVENTS_SHOWN} more` : "";
    return `${value.length} (${shown}${more})`;
  }
  if (value && typeof value === "object") {
    return "kind" in value || "amountCents" in value ? eventText(value) : JSON.stringify(value);
  }
  return String(value);
}

/**
 * A monitoring alert's evidence as facts: each one the rule recorded, named in words, amounts in dollars and
 * events as "credit $950.00 on 2026-11-27", the judged event last. What the back office lists.
 */
export function alertEvidenceFacts(evidence: Record<string, unknown>): [label: string, value: string][] {
  const keys = Object.keys(evidence).filter((k) => k !== "event");
  const facts: [string, string][] = keys.map((k) => [words(k), valueText(k, evidence[k])]);
  if ("event" in evidence) facts.push(["judged event", eventText(evidence.event)]);
  return facts;
}

/** The same facts in one line for the SAR's PDF. */
export function alertEvidenceText(evidence: Record<string, unknown>): string {
  return alertEvidenceFacts(evidence)
    .map(([label, value]) => `${label}: ${value}`)
    .join("; ");
}
