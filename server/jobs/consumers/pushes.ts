import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Consumer } from "@/server/jobs/consumer";

/** An event's "notices" (event-log.sql): whose screens changed, and which. */
const notices = z.array(z.object({ user_id: z.guid(), topics: z.array(z.string().min(1)).min(1) }));

/**
 * Pushed updates after commit (decision 051): the notices the money functions leave in their event become
 * each user's "this changed" notice (emit_user_event, user-events.sql), one per user per batch with the
 * topics merged, which wakes the user's open streams on every instance. Users in id order, so two batches (or
 * a batch and a trigger naming two users) take the notice counters' locks in one order.
 */
export const pushesConsumer: Consumer = {
  name: "pushes",
  kinds: "all",
  async handle(tx, events) {
    const topicsByUser = new Map<string, Set<string>>();
    for (const event of events) {
      const parsed = notices.safeParse(event.payload.notices);
      if (!parsed.success) continue;
      for (const notice of parsed.data) {
        const topics = topicsByUser.get(notice.user_id) ?? new Set<string>();
        for (const topic of notice.topics) topics.add(topic);
        topicsByUser.set(notice.user_id, topics);
      }
    }
    if (topicsByUser.size === 0) return;
    const rows = [...topicsByUser]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([userId, topics]) => ({ user_id: userId, topics: [...topics].sort() }));
    await tx.execute(sql`select emit_user_event(n.user_id, n.topics)
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as n(user_id uuid, topics text[])
      order by n.user_id`);
  },
};
