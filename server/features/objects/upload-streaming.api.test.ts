import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { KYC_MESSAGES, MAX_UPLOAD_BYTES } from "@/contract/kyc";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import { uploads } from "@/server/db/schema";
import { EXE, MAX_SIZE_PDF, PNG } from "@/tests/support/files";
import { waitFor } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

const MB = 1024 * 1024;
const LIMITS = { MAX_CONCURRENT_UPLOADS_PER_USER: "2", UPLOAD_DAILY_BYTES_PER_USER: String(25 * MB) };

let port: number;
const t = setUpTestApp(LIMITS);
beforeAll(async () => {
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = Number(new URL(address).port);
});

const uploadsDir = () => path.join(t.dataDir, "objects", "uploads");
/** Every file under the uploads directory whose name starts with the upload's id (the object or a temp). */
const filesOf = (objectPath: string) => {
  const id = objectPath.split("/").pop()!;
  return fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).filter((n) => n.startsWith(id)) : [];
};

async function askForUpload(app: App, cookie: string) {
  const res = await app.inject({ method: "POST", url: "/api/objects/upload", headers: { cookie } });
  return { status: res.statusCode, body: res.json() };
}

/**
 * A chunked PUT (no Content-Length, so the server cannot refuse from a header) that the test feeds by hand;
 * `answer` settles when the server replies, whether or not the body was finished.
 */
function startPut(uploadURL: string, cookie: string) {
  const req = http.request({
    host: "127.0.0.1",
    port,
    method: "PUT",
    path: uploadURL,
    headers: { cookie, "content-type": "application/octet-stream", "transfer-encoding": "chunked" },
  });
  req.on("error", () => {});
  const answer = new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on("error", reject);
  });
  // A test that hangs up on purpose never reads the answer.
  answer.catch(() => {});
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve) => (req.write(chunk) ? resolve() : req.once("drain", resolve)));
  return { req, answer, write };
}

/** A PNG of `size` bytes: the real signature and header, then filler. */
const pngOf = (size: number) => {
  const bytes = Buffer.alloc(size);
  PNG.copy(bytes);
  return bytes;
};

async function statusOf(objectPath: string) {
  const [row] = await t.database.db
    .select()
    .from(uploads)
    .where(eq(uploads.objectKey, objectPath.replace("/objects/", "")));
  return row!.status;
}

describe("streamed uploads", () => {
  let alice: SignedInUser;
  beforeAll(async () => {
    alice = await createVerifiedUser(t.database);
  });

  it("writes the file while the body is still arriving, not after buffering it", async () => {
    const { body } = await askForUpload(t.app, alice.cookie);
    const put = startPut(body.uploadURL, alice.cookie);
    await put.write(pngOf(2 * MB));
    // The client has not finished; the server already has bytes on disk (in its temporary file).
    await waitFor("bytes on disk before the body ended", () =>
      filesOf(body.objectPath).some((n) => fs.statSync(path.join(uploadsDir(), n)).size > 0),
    );
    await put.write(Buffer.alloc(MB));
    put.req.end();
    const answer = await put.answer;
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ contentType: "image/png", size: 3 * MB });
    expect(filesOf(body.objectPath)).toEqual([body.objectPath.split("/").pop()]);
  });

  it("refuses 10 MB + 1 byte with 413 JSON and leaves no file behind", async () => {
    const { body } = await askForUpload(t.app, alice.cookie);
    const put = startPut(body.uploadURL, alice.cookie);
    const bytes = pngOf(MAX_UPLOAD_BYTES + 1);
    for (let offset = 0; offset < bytes.length; offset += MB)
      await put.write(bytes.subarray(offset, offset + MB));
    put.req.end();
    const answer = await put.answer;
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ message: KYC_MESSAGES.fileTooLarge, code: "PAYLOAD_TOO_LARGE" });
    expect(filesOf(body.objectPath)).toEqual([]);
    // The link is given back: the customer may retry with a smaller file while it is valid.
    expect(await statusOf(body.objectPath)).toBe("pending");
  });

  it("refuses a body whose first bytes are no accepted type as soon as they arrive", async () => {
    const { body } = await askForUpload(t.app, alice.cookie);
    const put = startPut(body.uploadURL, alice.cookie);
    await put.write(EXE.subarray(0, 64));
    // The rest of the body is never sent: the answer comes from the first bytes alone.
    const answer = await put.answer;
    put.req.destroy();
    expect(answer.status).toBe(415);
    expect(answer.json).toMatchObject({
      message: KYC_MESSAGES.unsupportedFile,
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    expect(filesOf(body.objectPath)).toEqual([]);
  });

  it("removes the partial file when the client goes away mid-upload", async () => {
    const { body } = await askForUpload(t.app, alice.cookie);
    const put = startPut(body.uploadURL, alice.cookie);
    await put.write(pngOf(MB));
    await waitFor("bytes on disk", () => filesOf(body.objectPath).length > 0);
    put.req.destroy();
    await waitFor("the partial file to be removed", () => filesOf(body.objectPath).length === 0);
    await waitFor("the link to be given back", async () => (await statusOf(body.objectPath)) === "pending");
  });
});

describe("per-user upload limits", () => {
  it("refuses a third upload at once with 429 JSON, and takes one again when an upload finishes", async () => {
    const bob = await createVerifiedUser(t.database);
    const links = await Promise.all([1, 2, 3].map(() => askForUpload(t.app, bob.cookie)));
    const [first, second] = [
      startPut(links[0]!.body.uploadURL, bob.cookie),
      startPut(links[1]!.body.uploadURL, bob.cookie),
    ];
    await first.write(pngOf(64 * 1024));
    await second.write(pngOf(64 * 1024));
    await waitFor("both uploads to be receiving", async () => {
      const statuses = await Promise.all([
        statusOf(links[0]!.body.objectPath),
        statusOf(links[1]!.body.objectPath),
      ]);
      return statuses.every((s) => s === "receiving");
    });

    const third = await t.app.inject({
      method: "PUT",
      url: links[2]!.body.uploadURL,
      headers: { cookie: bob.cookie, "content-type": "image/png" },
      payload: PNG,
    });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({
      message: "You can upload 2 files at a time. Wait for an upload to finish, then try again.",
      code: "RATE_LIMITED",
      uploadConcurrencyLimit: true,
    });

    first.req.end();
    expect((await first.answer).status).toBe(200);
    const retry = await t.app.inject({
      method: "PUT",
      url: links[2]!.body.uploadURL,
      headers: { cookie: bob.cookie, "content-type": "image/png" },
      payload: PNG,
    });
    expect(retry.statusCode).toBe(200);
    second.req.end();
    expect((await second.answer).status).toBe(200);
  });

  it("counts a day's bytes in the database, so a second instance refuses past the daily cap too", async () => {
    const carol = await createVerifiedUser(t.database);
    const upload = async (app: App, bytes: Buffer) => {
      const { body } = await askForUpload(app, carol.cookie);
      return app.inject({
        method: "PUT",
        url: body.uploadURL,
        headers: { cookie: carol.cookie, "content-type": "application/pdf" },
        payload: bytes,
      });
    };
    expect((await upload(t.app, MAX_SIZE_PDF)).statusCode).toBe(200);
    expect((await upload(t.app, MAX_SIZE_PDF)).statusCode).toBe(200);

    // Another app instance on the same database (and a fresh in-memory state) sees the 20 MB already used.
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: t.dataDir, LOG_LEVEL: "silent", ...LIMITS });
    const other = await buildApp({ config, database: t.database }, { logger: false });
    try {
      const overCap = await upload(other, MAX_SIZE_PDF);
      expect(overCap.statusCode).toBe(429);
      expect(overCap.json()).toMatchObject({
        message: "You have reached the upload limit of 25 MB a day. Try again tomorrow, or contact support.",
        code: "RATE_LIMITED",
        uploadDailyLimit: true,
      });
      // Within what is left (5 MB) is fine; after that not even an upload link is handed out.
      expect((await upload(other, pngOf(5 * MB))).statusCode).toBe(200);
      const link = await other.inject({
        method: "POST",
        url: "/api/objects/upload",
        headers: { cookie: carol.cookie },
      });
      expect(link.statusCode).toBe(429);
      expect(link.json()).toMatchObject({ uploadDailyLimit: true });
    } finally {
      await other.close();
    }
  });
});
