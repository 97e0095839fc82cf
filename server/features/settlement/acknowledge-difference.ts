import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, queryRows } from "@/server/db/client";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

/**
 * A finance member acknowledges a reconciliation difference with a reason (decision 040). The acknowledgment
 * belongs to the difference, kept once from the run that first found it (decision 057), so every report that
 * finds it shows it acknowledged and a new difference is not; it stays in every report and CSV, marked with who,
 * when and why, and stops counting in /metrics `reconciliation_differences`. An item of a report from before
 * differences were kept is acknowledged by its fingerprint, as decision 040 did. Audited in the same transaction.
 */
export async function acknowledgeDifference(
  db: Db,
  chainId: number | null,
  reportId: string,
  itemId: string,
  actorId: string,
  reason: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    // Item ids are numbers; anything else names no item (404, like an id of another chain's report).
    const [item] =
      chainId === null || !/^[1-9]\d{0,17}$/.test(itemId)
        ? []
        : await queryRows(
            tx,
            sql`select i.id::text, i.area, i.kind, i.outcome, i.tx_hash, i.fingerprint, i.difference_id::text
                from reconciliation_items i join reconciliation_reports r on r.id = i.report_id
                where i.id = ${itemId}::bigint and i.report_id = ${reportId} and r.chain_id = ${chainId}`,
            z.object({
              id: z.string(),
              area: z.string(),
              kind: z.string(),
              outcome: z.string(),
              tx_hash: z.string().nullable(),
              fingerprint: z.string(),
              difference_id: z.string().nullable(),
            }),
          );
    if (!item) throw new AppError("NOT_FOUND", "No such item in this reconciliation report");
    if (item.outcome === "resolved") {
      throw new AppError(
        "not_a_difference",
        "This line records a difference resolved by this run: acknowledge the difference where it was found",
      );
    }
    if (item.outcome !== "difference") {
      throw new AppError(
        "not_a_difference",
        "Only a difference can be acknowledged: this item is confirmed on chain and settles on the worker's next pass",
      );
    }
    const [saved] = item.difference_id
      ? await queryRows(
          tx,
          sql`update reconciliation_differences
              set acknowledged_by = ${actorId}, acknowledged_at = now(), acknowledgment_reason = ${reason}
              where id = ${item.difference_id}::bigint and acknowledged_at is null
              returning id::text`,
          z.object({ id: z.string() }),
        )
      : await queryRows(
          tx,
          sql`insert into reconciliation_acknowledgments (chain_id, fingerprint, area, kind, item_id, reason, acknowledged_by)
              values (${chainId}, ${item.fingerprint}, ${item.area}, ${item.kind}, ${item.id}::bigint, ${reason}, ${actorId})
              on conflict (chain_id, fingerprint) do nothing
              returning id`,
          z.object({ id: z.string() }),
        );
    if (!saved) {
      throw new AppError("difference_acknowledged", "This difference is already acknowledged");
    }
    await writeAudit(tx, {
      actorId,
      action: "settlement.acknowledge_difference",
      targetType: "reconciliation_report",
      targetId: reportId,
      before: { acknowledged: false },
      after: { acknowledged: true, itemId: item.id, area: item.area, kind: item.kind, txHash: item.tx_hash },
      reason,
    });
  });
}
