import fs from "node:fs";
import path from "node:path";
import { e2eServer } from "@/tests/e2e/support/server";
import { parseMail, type ReceivedMail } from "@/tests/support/smtp-sink";

const consumed = new Set<string>();

/** Waits for the next unread message to `to` in the e2e SMTP sink's folder (each file is read once). */
export async function waitForMail(
  to: string,
  predicate: (mail: ReceivedMail) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<ReceivedMail> {
  const dir = e2eServer().mailDir;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of fs.readdirSync(dir).sort()) {
      if (consumed.has(file)) continue;
      const raw = fs.readFileSync(path.join(dir, file), "utf8");
      const envelopeTo = /^X-Envelope-To: (.*)\r\n/.exec(raw)?.[1] ?? "";
      if (!envelopeTo.toLowerCase().split(",").includes(to.toLowerCase())) continue;
      const mail = parseMail(raw.replace(/^X-Envelope-To: .*\r\n/, ""), {
        to: envelopeTo.split(","),
        from: "",
      });
      if (!predicate(mail)) continue;
      consumed.add(file);
      return mail;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No mail for ${to} within ${timeoutMs} ms`);
}
