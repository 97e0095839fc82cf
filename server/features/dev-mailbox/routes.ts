import type { FastifyInstance } from "fastify";
import { BRAND } from "@/contract/brand";
import { type MailboxEntry, mailboxList } from "@/contract/dev-mailbox";
import { htmlPage } from "@/contract/media";
import { listMailbox } from "@/server/features/dev-mailbox/list-mailbox";
import { AppError } from "@/server/lib/errors";
import { escapeHtml } from "@/server/lib/mail/html";

function renderMailbox(entries: MailboxEntry[]): string {
  const items = entries
    .map(
      (m) => `<li style="border:1px solid #e5e7eb;border-radius:8px;padding:12px;margin:0 0 12px">
<div style="font-size:12px;color:#6b7280">${escapeHtml(m.createdAt)} · ${escapeHtml(m.kind)} · ${escapeHtml(m.status)}</div>
<div><strong>To:</strong> ${escapeHtml(m.to)}</div>
<div><strong>Subject:</strong> ${escapeHtml(m.subject)}</div>
<pre style="white-space:pre-wrap;font-family:inherit;margin:8px 0 0">${escapeHtml(m.text)}</pre>
</li>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(BRAND.name)} dev mailbox</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;max-width:720px;margin:24px auto;padding:0 16px;color:#111827">
<h1 style="font-size:20px">${escapeHtml(BRAND.name)} dev mailbox</h1>
<p style="color:#6b7280">Mail kept in the outbox because SMTP_URL is not set. Newest first; refresh to update.</p>
<ul style="list-style:none;padding:0">${items || "<li>No mail yet.</li>"}</ul>
</body></html>`;
}

/** Outside production only: the outbox as a page and as JSON, so sign-up works without a mail server. */
export async function devMailboxRoutes(app: FastifyInstance) {
  const { config, database } = app.deps;
  const guard = async () => {
    if (config.isProduction) throw new AppError("NOT_FOUND", "Not found");
  };

  app.get(
    "/mailbox.json",
    { schema: { response: { 200: mailboxList } }, preHandler: guard },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return listMailbox(database.db);
    },
  );

  app.get(
    "/mailbox",
    { schema: { response: { 200: htmlPage } }, preHandler: guard },
    async (_request, reply) => {
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(renderMailbox(await listMailbox(database.db)));
    },
  );
}
