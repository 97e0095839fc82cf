import { createHash } from "node:crypto";
import type { Scenarios } from "@/scripts/monitoring-scenarios/generate";
import type { ScenarioLabel } from "@/scripts/monitoring-scenarios/world";

/** What FROZEN.json holds of a population: its size, its counts per label, and a hash of every event. */
export interface ScenarioFingerprint {
  seed: number;
  customers: number;
  events: number;
  measuredEvents: number;
  /** "normal/<kind>" and "<typology>/<variant>/<carrier>" → customers. */
  counts: Record<string, number>;
  /** sha256 over every customer's label, opening, devices and events, in order. */
  sha256: string;
}

export function labelKey(label: ScenarioLabel): string {
  return label.type === "normal"
    ? `normal/${label.kind}`
    : `${label.typology}/${label.variant}/${label.carrier}`;
}

export function fingerprintScenarios(s: Scenarios): ScenarioFingerprint {
  const hash = createHash("sha256");
  const counts: Record<string, number> = {};
  let events = 0;
  let measuredEvents = 0;
  for (const c of s.customers) {
    const key = labelKey(c.label);
    counts[key] = (counts[key] ?? 0) + 1;
    events += c.events.length;
    for (const e of c.events) if (e.at >= s.measuredFrom && e.at < s.measuredTo) measuredEvents++;
    hash.update(JSON.stringify([c.id, c.label, c.accountOpenedAt, c.devices, c.events]));
    hash.update("\n");
  }
  const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  return {
    seed: s.seed,
    customers: s.customers.length,
    events,
    measuredEvents,
    counts: sorted,
    sha256: hash.digest("hex"),
  };
}
