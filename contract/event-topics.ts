/**
 * What a pushed notice on `GET /api/events` can name (decision 034): the customer's screens that read it refetch,
 * nothing else. The notice carries no data of its own, only that something changed. Kept apart from
 * `contract/events.ts` (its zod schemas) because the web's app shell reads it on every page, the landing page too.
 */
export const EVENT_TOPICS = [
  "transactions",
  "summary",
  "kyc",
  "account",
  "chat",
  "transfers",
  "notifications",
  "requests",
  "deposits",
  "savings",
] as const;
export type EventTopic = (typeof EVENT_TOPICS)[number];
