import { type CreateUploadResponse, normaliseObjectPath } from "@/contract/kyc";
import { ApiError } from "@/web/lib/api";

/** The server's JSON message when it sent one (it says what was wrong with the file), else the status text or raw text. */
async function describeFailure(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === "string" && body.message) return body.message;
  } catch {
    // Not JSON: fall through to the status text or the text as it came.
  }
  return res.statusText || text.slice(0, 200);
}

/**
 * Spec §7 upload: POST /api/objects/upload (no body) for a short-lived upload URL, then PUT the file there
 * with its own content type. Resolves to the document's `/objects/…` path, the value the application
 * stores. Failures carry the spec §8 texts; a 401 is an ApiError so the caller can treat it as signed out.
 */
export async function uploadFile(file: File): Promise<string> {
  const res = await fetch("/api/objects/upload", { method: "POST", credentials: "include" });
  if (!res.ok) throw new ApiError(res.status, `Failed to get upload URL: ${res.status}`);
  const body = (await res.json().catch(() => ({}))) as Partial<CreateUploadResponse>;
  if (!body.uploadURL) throw new Error("No upload URL received from server");

  // Same-origin (local storage) sends the session cookie; a presigned S3 URL needs none.
  const put = await fetch(body.uploadURL, {
    method: "PUT",
    body: file,
    headers: { "Content-Type": file.type || "application/octet-stream" },
  });
  if (!put.ok) throw new ApiError(put.status, `Upload failed: ${put.status} ${await describeFailure(put)}`);
  return normaliseObjectPath(body.objectPath || body.uploadURL);
}
