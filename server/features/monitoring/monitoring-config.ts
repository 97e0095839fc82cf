import { DEFAULT_APPROVAL_THRESHOLD_CENTS } from "@/contract/approvals";
import { DAILY_LIMIT_CENTS } from "@/contract/transfers";
import { defaultMonitoringConfig, type MonitoringConfig } from "@/server/features/monitoring/rules";

/**
 * The rules' settings for this process. Money is credited deep inside payment and deposit code that has no
 * configuration at hand, so the app sets this once where it is built (buildApp), from APPROVAL_THRESHOLD; every
 * other parameter is decision 031's default in rules.ts.
 */
let active: MonitoringConfig = defaultMonitoringConfig({
  approvalThresholdCents: DEFAULT_APPROVAL_THRESHOLD_CENTS,
  dailyLimitCents: DAILY_LIMIT_CENTS,
});

export function configureMonitoring(limits: { approvalThresholdCents: number }): void {
  active = defaultMonitoringConfig({
    approvalThresholdCents: limits.approvalThresholdCents,
    dailyLimitCents: DAILY_LIMIT_CENTS,
  });
}

export function monitoringConfig(): MonitoringConfig {
  return active;
}
