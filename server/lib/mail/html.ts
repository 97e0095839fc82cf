import { BRAND } from "@/contract/brand";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Every interpolated value goes through this: names and amounts come from users and admins. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const BRAND_COLOUR = "#0f4c5c";

/** Inline-styled single-column layout: mail clients drop <style> blocks and external CSS. */
export function renderLayout({ heading, bodyHtml }: { heading: string; bodyHtml: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;padding:0;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f6f8;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="480" cellpadding="0" cellspacing="0" style="max-width:480px;width:100%;background:#ffffff;border:1px solid #e5e7eb;border-radius:8px">
<tr><td style="padding:20px 24px;border-bottom:1px solid #e5e7eb;font-size:20px;font-weight:bold;color:${BRAND_COLOUR}">${escapeHtml(BRAND.name)}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 16px;font-size:18px;color:#111827">${escapeHtml(heading)}</h1>
${bodyHtml}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font-size:12px;color:#6b7280">Questions? Write to ${escapeHtml(BRAND.supportEmail)}. ${escapeHtml(BRAND.name)} never asks for your password or codes.</td></tr>
</table>
</td></tr>
</table>
</body></html>`;
}

export function paragraph(text: string): string {
  return `<p style="margin:0 0 12px;font-size:14px;line-height:20px">${escapeHtml(text)}</p>`;
}

export function codeBlock(code: string): string {
  return `<p style="margin:16px 0;font-size:32px;font-weight:bold;letter-spacing:6px;color:${BRAND_COLOUR};font-family:'Courier New',monospace">${escapeHtml(code)}</p>`;
}
