import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { KYC_MESSAGES, MAX_UPLOAD_BYTES } from "@/contract/kyc";
import { uploads } from "@/server/db/schema";
import {
  EXE,
  GIF,
  HTML,
  JPEG,
  MAX_SIZE_PDF,
  OVERSIZED_PNG,
  PDF,
  PNG,
  uploadFile,
  WEBP,
} from "@/tests/support/files";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser, setUpVerifiedUser } from "@/tests/support/users";

const t = setUpTestApp();
const alice = setUpVerifiedUser(t);
const bob = setUpVerifiedUser(t);
const admin = setUpAdminUser(t);
afterEach(() => {
  vi.useRealTimers();
});

/** Raw-socket tests need a real port: the app listens once for the whole file. */
let port: number | undefined;
beforeAll(async () => {
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = Number(new URL(address).port);
});
const listeningPort = () => port!;

const askForUpload = (cookie?: string, payload?: object) =>
  t.app.inject({
    method: "POST",
    url: "/api/objects/upload",
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload } : {}),
  });

const put = (url: string, bytes: Buffer | string, headers: Record<string, string>) =>
  t.app.inject({ method: "PUT", url, headers, payload: bytes });

const getObject = (objectPath: string, cookie?: string) =>
  t.app.inject({ method: "GET", url: objectPath, headers: cookie ? { cookie } : {} });

describe("POST /api/objects/upload", () => {
  it("hands a signed-in user a short-lived upload URL and the object path, with no body", async () => {
    const res = await askForUpload(alice.cookie);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.uploadURL).toMatch(/^\/api\/objects\/upload\/[^/]+$/);
    expect(body.objectPath).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    expect(body.method).toBe("PUT");
    expect(body.maxBytes).toBe(MAX_UPLOAD_BYTES);
    const ttl = new Date(body.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
  });

  it("accepts an optional JSON body naming the document type", async () => {
    const res = await askForUpload(alice.cookie, { documentType: "llcDocument" });
    expect(res.statusCode).toBe(200);
  });

  it("refuses a signed-out caller with 401", async () => {
    const res = await askForUpload();
    expect(res.statusCode).toBe(401);
  });
});

describe("PUT to the upload URL (local disk)", () => {
  it.each([
    ["PNG", PNG, "image/png"],
    ["JPEG", JPEG, "image/jpeg"],
    ["GIF", GIF, "image/gif"],
    ["WebP", WEBP, "image/webp"],
    ["PDF", PDF, "application/pdf"],
  ])("stores a real %s and records its sniffed type", async (_name, bytes, type) => {
    const up = await uploadFile(t.app, alice.cookie, bytes, "application/octet-stream");
    expect(up.putStatus).toBe(200);
    expect(JSON.parse(up.putBody)).toEqual({
      objectPath: up.objectPath,
      contentType: type,
      size: bytes.length,
    });
    const file = path.join(t.dataDir, "objects", up.objectPath.replace("/objects/", ""));
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it("refuses an EXE renamed .png and declared image/png, with 415", async () => {
    const up = await uploadFile(t.app, alice.cookie, EXE, "image/png");
    expect(up.putStatus).toBe(415);
    expect(JSON.parse(up.putBody).message).toBe(KYC_MESSAGES.unsupportedFile);
    expect(fs.existsSync(path.join(t.dataDir, "objects", up.objectPath.replace("/objects/", "")))).toBe(
      false,
    );
  });

  it("refuses an HTML page declared as image/jpeg", async () => {
    const up = await uploadFile(t.app, alice.cookie, HTML, "image/jpeg");
    expect(up.putStatus).toBe(415);
  });

  it("refuses a file over 10 MB with 413 and the spec's message", async () => {
    const up = await uploadFile(t.app, alice.cookie, OVERSIZED_PNG, "image/png");
    expect(up.putStatus).toBe(413);
    expect(JSON.parse(up.putBody).message).toBe(KYC_MESSAGES.fileTooLarge);
  });

  it("accepts exactly 10485760 bytes", async () => {
    const up = await uploadFile(t.app, alice.cookie, MAX_SIZE_PDF, "application/pdf");
    expect(up.putStatus).toBe(200);
    expect(JSON.parse(up.putBody).size).toBe(MAX_UPLOAD_BYTES);
  });

  it("refuses an empty body", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    const res = await put(uploadURL, Buffer.alloc(0), { cookie: alice.cookie, "content-type": "image/png" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(KYC_MESSAGES.emptyFile);
  });

  it("takes the bytes whatever the declared type (JSON, text, none)", async () => {
    for (const contentType of ["application/json", "text/plain", "multipart/form-data; boundary=x"]) {
      const { uploadURL } = (await askForUpload(alice.cookie)).json();
      const res = await put(uploadURL, PNG, { cookie: alice.cookie, "content-type": contentType });
      expect(res.statusCode, contentType).toBe(200);
      expect(res.json().contentType).toBe("image/png");
    }
  });

  it("works once: replaying the URL is refused with 409", async () => {
    const up = await uploadFile(t.app, alice.cookie, PNG);
    expect(up.putStatus).toBe(200);
    const again = await put(up.uploadURL, JPEG, { cookie: alice.cookie, "content-type": "image/jpeg" });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(KYC_MESSAGES.uploadUsed);
    const file = await getObject(up.objectPath, alice.cookie);
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it("refuses another user's upload URL with 403", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    const res = await put(uploadURL, PNG, { cookie: bob.cookie, "content-type": "image/png" });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(KYC_MESSAGES.uploadInvalid);
  });

  it("refuses a signed-out PUT with 401", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    const res = await put(uploadURL, PNG, { "content-type": "image/png" });
    expect(res.statusCode).toBe(401);
  });

  it("refuses an expired upload URL with 403", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60_000 });
    const res = await put(uploadURL, PNG, { cookie: alice.cookie, "content-type": "image/png" });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(KYC_MESSAGES.uploadExpired);
  });

  it("refuses a forged or tampered token", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    const token: string = uploadURL.split("/").pop();
    const [payload, signature] = [
      token.slice(0, token.lastIndexOf(".")),
      token.slice(token.lastIndexOf(".") + 1),
    ];
    const later = payload.replace(/_(\d+)$/, (_m, exp) => `_${Number(exp) + 86_400}`);
    for (const bad of [`${later}.${signature}`, `${payload}.AAAA`, "garbage", `${payload}`]) {
      const res = await put(`/api/objects/upload/${bad}`, PNG, {
        cookie: alice.cookie,
        "content-type": "image/png",
      });
      expect(res.statusCode, bad).toBe(403);
    }
  });

  it("refuses a huge body for a bad token before reading it", async () => {
    const res = await put("/api/objects/upload/forged.sig", OVERSIZED_PNG, {
      cookie: alice.cookie,
      "content-type": "image/png",
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("GET /objects/{path}", () => {
  it("streams the file to its owner with the sniffed type and safe headers", async () => {
    const up = await uploadFile(t.app, alice.cookie, PDF, "image/png");
    const res = await getObject(up.objectPath, alice.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-disposition"]).toBe("inline");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });

  it("streams it to an admin", async () => {
    const up = await uploadFile(t.app, alice.cookie, JPEG, "image/jpeg");
    const res = await getObject(up.objectPath, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
  });

  it("answers 404 to another user and to a signed-out visitor", async () => {
    const up = await uploadFile(t.app, alice.cookie, PNG);
    for (const cookie of [bob.cookie, undefined]) {
      const res = await getObject(up.objectPath, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("Object not found");
    }
  });

  it("answers 404 for an upload that never completed", async () => {
    const { objectPath } = (await askForUpload(alice.cookie)).json();
    expect((await getObject(objectPath, alice.cookie)).statusCode).toBe(404);
  });

  it("answers 404 to path traversal and odd paths, sent raw over a real socket", async () => {
    fs.mkdirSync(path.join(t.dataDir, "objects", "uploads"), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, "secret.txt"), "top secret");
    fs.writeFileSync(path.join(t.dataDir, "objects", "secret.txt"), "top secret");
    const port = listeningPort();
    const rawGet = (rawPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: "127.0.0.1", port, path: rawPath, headers: { cookie: admin.cookie } },
          (res) => {
            let body = "";
            res.on("data", (chunk) => {
              body += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on("error", reject);
        req.end();
      });
    for (const rawPath of [
      "/objects/..%2fsecret.txt",
      "/objects/..%2f..%2fsecret.txt",
      "/objects/uploads/..%2f..%2fsecret.txt",
      "/objects/%2e%2e/secret.txt",
      "/objects/uploads/%2e%2e/%2e%2e/secret.txt",
      "/objects/secret.txt",
      "/objects/uploads/not-a-uuid",
      "/objects/",
      "/objects/uploads/00000000-0000-0000-0000-000000000000",
      "/objects/uploads/00000000-0000-0000-0000-000000000000%00.png",
    ]) {
      const res = await rawGet(rawPath);
      expect(res.status, rawPath).toBe(404);
      expect(res.body).not.toContain("top secret");
    }
  });

  it("serves the sniffed type, never the declared one", async () => {
    const up = await uploadFile(t.app, alice.cookie, GIF, "text/html");
    const [row] = await t.database.db
      .select()
      .from(uploads)
      .where(eq(uploads.objectKey, up.objectPath.slice(9)));
    expect(row!.contentType).toBe("image/gif");
    const res = await getObject(up.objectPath, alice.cookie);
    expect(res.headers["content-type"]).toBe("image/gif");
  });
});

describe("raw HTTP attacks on the upload route", () => {
  const send = (options: http.RequestOptions, body?: (req: http.ClientRequest) => void) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: listeningPort(), ...options }, (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", reject);
      if (body) body(req);
      else req.end();
    });

  it("stops a chunked body (no Content-Length) at 10 MB with the spec's message", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    const res = await send(
      { method: "PUT", path: uploadURL, headers: { cookie: alice.cookie, "content-type": "image/png" } },
      (req) => {
        req.on("error", () => {});
        const chunk = Buffer.alloc(1024 * 1024);
        PNG.copy(chunk);
        for (let i = 0; i < 11; i++) req.write(chunk);
        req.end();
      },
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toBe(KYC_MESSAGES.fileTooLarge);
  });

  it("refuses a cross-site PUT even with the victim's cookie", async () => {
    const { uploadURL } = (await askForUpload(alice.cookie)).json();
    const res = await put(uploadURL, PNG, {
      cookie: alice.cookie,
      "content-type": "image/png",
      origin: "https://evil.example",
    });
    expect(res.statusCode).toBe(403);
  });
});
