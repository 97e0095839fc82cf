import { formatGwei, type PublicClient } from "viem";

/**
 * What Pillar pays per gas for a transaction of the hot wallet (decision 058): the market's price, never a fee
 * that grows on its own. Pure functions over the market and the last attempt, so payouts today and the
 * treasury's sweeps later price the same way.
 */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The market now: the node's estimate (viem's: 1.2 × the latest base fee + the tip) and that base fee. */
export interface Market extends Fees {
  baseFeePerGas: bigint;
}

/**
 * A node takes a transaction at a nonce it already holds only when both fees are at least 10% higher (geth's
 * txpool.pricebump); one wei more keeps integer rounding from landing exactly on the limit.
 */
const REPLACEMENT_BUMP_PERCENT = 10n;

/** Staff's Speed up pays this much more than the last attempt (or the market, when that is higher). */
export const SPEED_UP_BUMP_PERCENT = 25n;

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const bumped = (fee: bigint, percent: bigint) => (fee * (100n + percent)) / 100n + 1n;

export async function readMarket(client: PublicClient): Promise<Market> {
  const [estimate, block] = await Promise.all([client.estimateFeesPerGas(), client.getBlock()]);
  return {
    maxFeePerGas: estimate.maxFeePerGas,
    maxPriorityFeePerGas: estimate.maxPriorityFeePerGas,
    baseFeePerGas: block.baseFeePerGas ?? 0n,
  };
}

export type Priced =
  | { fees: Fees }
  /** Paying what the chain asks would pass the ceiling: nothing is signed until the market falls. */
  | { paused: { askedWei: bigint; ceilingWei: bigint } };

/**
 * The fees to sign with. The market's, capped at the ceiling (a fee above the base fee plus the tip buys
 * nothing); after `last`, at least the bump a node asks of a replacement. Paused when the least the chain takes
 * now (base fee + tip) or the replacement's least is above the ceiling: Pillar waits rather than overpays.
 */
export function priceTransaction(
  market: Market,
  ceilingWei: bigint | null,
  last?: Fees,
  bumpPercent = REPLACEMENT_BUMP_PERCENT,
): Priced {
  let maxPriorityFeePerGas = market.maxPriorityFeePerGas;
  let maxFeePerGas = market.maxFeePerGas;
  if (last) {
    maxPriorityFeePerGas = max(maxPriorityFeePerGas, bumped(last.maxPriorityFeePerGas, bumpPercent));
    maxFeePerGas = max(maxFeePerGas, bumped(last.maxFeePerGas, bumpPercent));
  }
  maxFeePerGas = max(maxFeePerGas, maxPriorityFeePerGas);
  if (ceilingWei === null) return { fees: { maxFeePerGas, maxPriorityFeePerGas } };
  const least = max(
    market.baseFeePerGas + maxPriorityFeePerGas,
    last ? bumped(last.maxFeePerGas, bumpPercent) : 0n,
  );
  if (least > ceilingWei) return { paused: { askedWei: least, ceilingWei } };
  return {
    fees: { maxFeePerGas: maxFeePerGas > ceilingWei ? ceilingWei : maxFeePerGas, maxPriorityFeePerGas },
  };
}

/**
 * Whether a transaction not mined in time deserves a replacement: only when the market moved past what it
 * carries (the estimate, capped at the ceiling, asks a higher max fee or tip). Otherwise a replacement would
 * only raise the fee (a flat market, or a nonce below it that blocks it): the same bytes go again instead.
 */
export function marketMovedPast(signed: Fees, market: Market, ceilingWei: bigint | null): boolean {
  const asked = ceilingWei !== null && market.maxFeePerGas > ceilingWei ? ceilingWei : market.maxFeePerGas;
  return asked > signed.maxFeePerGas || market.maxPriorityFeePerGas > signed.maxPriorityFeePerGas;
}

/** A node refused the bytes because their fee is below the block's base fee (or the pool's floor). */
export const isFeeTooLow = (err: unknown) =>
  /max fee per gas less than block base fee|fee cap less than block base fee|feecap too low|transaction underpriced|fee too low|maxFeePerGas .* less than/i.test(
    String((err as Error)?.message ?? err),
  );

/** Gwei for the people reading alerts ("61.2 gwei", "0.012 gwei"). */
export const gwei = (wei: bigint) => `${formatGwei(wei)} gwei`;
