import { z } from "zod";

/** One outbox message as GET /dev/mailbox.json lists it (outside production only). */
export const mailboxEntry = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  kind: z.string(),
  status: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
});
export type MailboxEntry = z.infer<typeof mailboxEntry>;

/** GET /dev/mailbox.json: the newest messages first. */
export const mailboxList = z.array(mailboxEntry);
