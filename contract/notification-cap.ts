/**
 * The bell counts unread notifications up to this many and shows "99+" from here on: a count that stops here reads
 * at most this many index entries, however long a customer has left their notifications unread (decision 066).
 * A file of its own without zod: the bell is on every signed-in page, whose budget has no room for zod.
 */
export const UNREAD_NOTIFICATIONS_CAP = 100;
