import { type Address, getAddress, isAddress, parseGwei } from "viem";
import { parseMoney } from "@/contract/money";

/** The treasury's settings (decision 060), part of the chain's: sweeps, the hot wallet's ceiling and floor. */
export interface TreasuryConfig {
  /** The deposit forwarders' factory (DEPOSIT_FACTORY): new deposit addresses are its CREATE2 addresses. */
  depositFactory: Address | null;
  /** A deposit address is swept once it holds at least this (SWEEP_MIN_USDC, cents) … */
  sweepMinCents: number;
  /** … and its oldest unswept credited deposit is this old (SWEEP_MIN_AGE, seconds → ms) … */
  sweepMinAgeMs: number;
  /** … and the chain's fee is at or below this (SWEEP_MAX_GAS_GWEI, wei as a decimal string). */
  sweepMaxFeeWei: string;
  /** Where the surplus above the ceiling goes (COLD_WALLET_ADDRESS); null: nothing goes to cold. */
  coldWallet: Address | null;
  /** HOT_WALLET_CEILING in cents; null: no ceiling. */
  hotWalletCeilingCents: number | null;
  /** The tab and /metrics warn when the hot wallet lasts fewer hours than this at the last day's rate. */
  forecastWarnHours: number;
}

type Env = Record<string, string | undefined>;
const value = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v === "" ? undefined : v;
};

/** Reads the treasury variables; each problem names its variable. */
export function parseTreasuryConfig(
  env: Env,
  own: { usdcContract?: string },
): { treasury: TreasuryConfig; problems: string[] } {
  const problems: string[] = [];
  const address = (name: string) => {
    const text = value(env, name);
    if (!text) return null;
    if (!isAddress(text, { strict: false }) || /^0x0{40}$/i.test(text)) {
      problems.push(`${name} must be a 0x address (not the zero address)`);
      return null;
    }
    if (own.usdcContract && text.toLowerCase() === own.usdcContract.toLowerCase()) {
      problems.push(`${name} must not be the token contract`);
      return null;
    }
    return getAddress(text.toLowerCase());
  };
  const depositFactory = address("DEPOSIT_FACTORY");
  const coldWallet = address("COLD_WALLET_ADDRESS");

  const minCents = parseMoney(value(env, "SWEEP_MIN_USDC") ?? "10.00");
  if (minCents === null || minCents < 1)
    problems.push("SWEEP_MIN_USDC must be a dollar amount of at least 0.01, like 10 or 250.00");

  const ageText = value(env, "SWEEP_MIN_AGE") ?? "3600";
  if (!/^\d+$/.test(ageText) || Number(ageText) > 30 * 86_400)
    problems.push("SWEEP_MIN_AGE must be a whole number of seconds from 0 to 2592000");

  const gweiText = value(env, "SWEEP_MAX_GAS_GWEI") ?? "50";
  let maxFee = 0n;
  if (!/^\d{1,6}(\.\d{1,9})?$/.test(gweiText) || Number(gweiText) <= 0)
    problems.push("SWEEP_MAX_GAS_GWEI must be a positive number of gwei like 50 or 0.5");
  else maxFee = parseGwei(gweiText);

  const ceilingText = value(env, "HOT_WALLET_CEILING");
  let ceiling: number | null = null;
  if (ceilingText) {
    ceiling = parseMoney(ceilingText);
    if (ceiling === null || ceiling < 1) {
      problems.push("HOT_WALLET_CEILING must be a dollar amount like 50000 or 25000.00");
      ceiling = null;
    } else if (!coldWallet && !value(env, "COLD_WALLET_ADDRESS")) {
      problems.push("HOT_WALLET_CEILING needs COLD_WALLET_ADDRESS: the surplus above it goes there");
    }
  }
  const hoursText = value(env, "HOT_WALLET_FORECAST_HOURS") ?? "24";
  if (!/^\d+$/.test(hoursText) || Number(hoursText) < 1 || Number(hoursText) > 8760)
    problems.push("HOT_WALLET_FORECAST_HOURS must be a whole number of hours from 1 to 8760");
  return {
    problems,
    treasury: {
      forecastWarnHours: Number(hoursText),
      depositFactory,
      sweepMinCents: minCents ?? 0,
      sweepMinAgeMs: Number(ageText) * 1000,
      sweepMaxFeeWei: maxFee.toString(),
      coldWallet,
      hotWalletCeilingCents: ceiling,
    },
  };
}
