// The jobs room's figures after a money scenario (docs/operations.md "Jobs room"): each consumer's lag from the app's
// /metrics, and how long after a transfer the monitoring alert that holds money was raised, from the scratch
// database.

/** Polls of /metrics while the consumers catch up after a run: every SETTLE_EVERY_MS, for at most SETTLE_MAX_MS. */
const SETTLE_EVERY_MS = 500;
const SETTLE_MAX_MS = 60_000;
/** Readings in a row with nothing more claimed or mailed that count as caught up. */
const SETTLE_STILL = 3;

/** `name{a="x",b="y"} 12` lines of a Prometheus text page, as [name, labels, value]. */
function samples(text) {
  const out = [];
  for (const m of text.matchAll(/^([a-zA-Z_:][\w:]*)\{([^}]*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries([...m[2].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    out.push([m[1], labels, Number(m[3])]);
  }
  return out;
}

/**
 * The app's /metrics as the bench reads it: over loopback, which production serves without a token (the bench's
 * app listens on 127.0.0.1), or with METRICS_TOKEN when the environment sets one. Per consumer: its p99 lag over
 * the claims it keeps (jobs_consumer_lag_p99_seconds), its claims so far and those within `goalS` (the lag
 * histogram's count and bucket); and the mail outbox's pending rows.
 */
export async function readJobsMetrics(url, { token, goalS }) {
  const res = await fetch(new URL("/metrics", url), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}: ${await res.text()}`);
  const consumers = {};
  const of = (name) => {
    consumers[name] ??= { p99: null, claims: 0, withinGoal: 0 };
    return consumers[name];
  };
  let mailPending = 0;
  for (const [name, labels, value] of samples(await res.text())) {
    if (name === "jobs_consumer_lag_p99_seconds") of(labels.consumer).p99 = value;
    else if (name === "jobs_consumer_lag_seconds_count") of(labels.consumer).claims = value;
    else if (name === "jobs_consumer_lag_seconds_bucket" && Number(labels.le) === goalS)
      of(labels.consumer).withinGoal = value;
    else if (name === "mail_outbox_undelivered" && labels.status === "pending") mailPending = value;
  }
  return { consumers, mailPending };
}

/**
 * Waits until the jobs room has caught up with a run: SETTLE_STILL readings in a row with no more claims and the
 * same mail backlog (the events not yet claimed when the load stops are the ones that waited longest). Answers
 * the last reading.
 */
export async function settleJobs(url, options) {
  const key = (m) =>
    JSON.stringify([m.mailPending, ...Object.entries(m.consumers).map(([n, c]) => [n, c.claims])]);
  let last = await readJobsMetrics(url, options);
  let still = 0;
  const deadline = Date.now() + SETTLE_MAX_MS;
  while (still < SETTLE_STILL && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, SETTLE_EVERY_MS));
    const next = await readJobsMetrics(url, options);
    still = key(next) === key(last) ? still + 1 : 0;
    last = next;
  }
  return last;
}

/**
 * One run's figures per consumer from the readings before and after it: the p99 the app reports after it (over
 * the last claims it keeps, which are this run's once it claimed as many), and the run's own claims and the
 * share of them within the goal (from the histogram: exact for the run whatever the app keeps).
 */
export function jobsFigures(before, after) {
  const figures = {};
  for (const [name, a] of Object.entries(after.consumers)) {
    const b = before.consumers[name] ?? { claims: 0, withinGoal: 0 };
    const claims = a.claims - b.claims;
    if (claims <= 0) continue;
    figures[name] = { p99: a.p99, claims, withinGoal: (a.withinGoal - b.withinGoal) / claims };
  }
  return figures;
}

/** The consumer with the largest p99 of a run, or null when none claimed anything. */
export function worstConsumer(figures) {
  const entries = Object.entries(figures ?? {}).filter(([, f]) => f.p99 != null);
  if (entries.length === 0) return null;
  const [name, f] = entries.reduce((worst, e) => (e[1].p99 > worst[1].p99 ? e : worst));
  return { name, ...f };
}

/**
 * The monitoring alerts on the transfers made since `since` (the run's start): how many (and by rule), how many
 * hold money, and the p99 of (alert raised − transfer made) of those that hold money (the goal: within 2 s of the
 * commit), in seconds.
 */
export async function monitoringHoldLag(client, since) {
  const { rows } = await client.query(
    `with run as (
       select a.rule, a.blocking, extract(epoch from a.created_at - t.created_at)::float8 as lag
       from monitoring_alerts a join transfer_requests t on t.id = a.transfer_id
       where t.created_at >= $1)
     select (select count(*)::int from run) as alerts,
       (select count(*)::int from run where blocking) as holding,
       (select percentile_cont(0.99) within group (order by lag) from run where blocking) as p99,
       (select coalesce(jsonb_object_agg(rule, n), '{}') from (select rule, count(*)::int as n from run group by rule) r)
         as rules`,
    [since],
  );
  return rows[0];
}
