import { BRAND } from "@/contract/brand";
import { escapeHtml, paragraph, renderLayout } from "@/server/lib/mail/html";
import type { MailMessage } from "@/server/lib/mail/templates";

/**
 * "Support replied" without the reply itself: a chat can hold account details, and mail is not the
 * place for them. The link, when PUBLIC_URL is set, goes straight to the conversation.
 */
export function supportReplyMail(
  to: string,
  { firstName, count, publicUrl }: { firstName: string; count: number; publicUrl?: string },
): MailMessage {
  const heading = count === 1 ? "Support replied to your message" : `Support sent you ${count} new replies`;
  const intro = `Hello ${firstName}, our support team answered you in your ${BRAND.name} live chat.`;
  const contactUrl = publicUrl ? `${publicUrl.replace(/\/+$/, "")}/contact` : undefined;
  const action = contactUrl
    ? `Read the reply: ${contactUrl}`
    : `Sign in to ${BRAND.name} and open Contact Support to read it.`;
  const button = contactUrl
    ? `<p style="margin:16px 0"><a href="${escapeHtml(contactUrl)}" style="display:inline-block;padding:10px 16px;background:#0f4c5c;color:#ffffff;border-radius:6px;text-decoration:none;font-size:14px">Open the conversation</a></p>`
    : paragraph(action);
  return {
    to,
    kind: "chat_reply",
    subject: `${BRAND.name} support replied to your message`,
    text: `${heading}\n\n${intro}\n\n${action}\n\n— ${BRAND.name}`,
    html: renderLayout({ heading, bodyHtml: paragraph(intro) + button }),
  };
}
