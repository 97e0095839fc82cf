import net from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { lateBound } from "@/tests/support/late-bound";

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The first 6-digit number in the plain-text part, if any. */
  code?: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  /** SMTP_URL for the app under test. */
  url: string;
  messages: ReceivedMail[];
  /** Starts accepting mail (startSmtpSink already did; reserveSmtpSink leaves it closed). */
  listen(): Promise<void>;
  /**
   * Resolves with the next message to `to` matching `predicate` that no earlier waitForMail returned,
   * so two codes to the same address are read in order.
   */
  waitForMail(
    to: string,
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function decodeEncodedWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_m, _charset, enc: string, text: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** Just enough MIME to read nodemailer's text/plain + text/html alternatives. */
function parseParts(headers: Map<string, string>, body: string, out: { text: string; html: string }) {
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith("--")) break;
      const part = splitHeaders(chunk.replace(/^\r?\n/, ""));
      parseParts(part.headers, part.body, out);
    }
  } else if (/^text\/html/i.test(type)) out.html += decodeBody(headers, body);
  else if (/^text\/plain/i.test(type)) out.text += decodeBody(headers, body);
}

export function parseMail(raw: string, envelope: { to: string[]; from: string }): ReceivedMail {
  const { headers, body } = splitHeaders(raw);
  const out = { text: "", html: "" };
  parseParts(headers, body, out);
  return {
    ...envelope,
    subject: decodeEncodedWords(headers.get("subject") ?? ""),
    text: out.text,
    html: out.html,
    code: /\b(\d{6})\b/.exec(out.text)?.[1],
    raw,
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A real SMTP server on 127.0.0.1 with a known port that is not listening yet (to test SMTP being down). */
export async function reserveSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  let listening = false;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push(parseMail(Buffer.concat(chunks).toString("utf8"), { from, to }));
        for (const wake of waiters) wake();
        callback();
      });
    },
  });

  const find = (to: string, predicate: (mail: ReceivedMail) => boolean) =>
    messages.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()) && predicate(m));

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => resolve());
      });
      listening = true;
    },
    waitForMail(to, predicate = () => true, timeoutMs = 20_000) {
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const mail = find(to, predicate);
          if (!mail) return false;
          taken.add(mail);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No mail to ${to} within ${timeoutMs} ms (received ${messages.length} in all)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async close() {
      if (!listening) return;
      listening = false;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A real SMTP server listening on a random 127.0.0.1 port; pass `sink.url` as SMTP_URL. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const sink = await reserveSmtpSink();
  await sink.listen();
  return sink;
}

/** One SMTP sink for the whole file, started in beforeAll (before a `setUpTestApp` declared after it) and closed in afterAll. */
export function setUpSmtpSink(): SmtpSink {
  const sink = lateBound<SmtpSink>("The SMTP sink");
  let started: SmtpSink | undefined;
  beforeAll(async () => {
    started = await startSmtpSink();
    sink.set(started);
  });
  afterAll(async () => {
    await started?.close();
  });
  return sink.value;
}
