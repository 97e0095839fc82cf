import { type CreateUploadResponse, normaliseObjectPath } from "@/contract/kyc";
import { ApiError, apiRequest, parseErrorBody } from "@/web/lib/api";

/** What went wrong with the PUT: the server's message when it sent one (it says what was wrong with the file), else the status text or raw text. */
async function readPutFailure(res: Response): Promise<{ detail: string; flags: Record<string, unknown> }> {
  const text = await res.text().catch(() => "");
  const body = parseErrorBody(text);
  return { detail: body?.message || res.statusText || text.slice(0, 200), flags: body?.flags ?? {} };
}

/** POST /api/objects/upload (no body): a short-lived upload URL, its failure in the spec's words. */
async function createUpload(): Promise<Partial<CreateUploadResponse>> {
  try {
    const body = await apiRequest<Partial<CreateUploadResponse> | string>("POST", "/api/objects/upload");
    return typeof body === "object" && body ? body : {};
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(error.status, `Failed to get upload URL: ${error.status}`, error.flags);
  }
}

/**
 * Spec §7 upload: POST /api/objects/upload (no body) for a short-lived upload URL, then PUT the file there
 * with its own content type. Resolves to the document's `/objects/…` path, the value the application
 * stores. Failures carry the spec §8 texts; a 401 is an ApiError so the caller can treat it as signed out.
 */
export async function uploadFile(file: File): Promise<string> {
  const body = await createUpload();
  if (!body.uploadURL) throw new Error("No upload URL received from server");

  // Same-origin (local storage) sends the session cookie; a presigned S3 URL needs none.
  const put = await fetch(body.uploadURL, {
    method: "PUT",
    body: file,
    headers: { "Content-Type": file.type || "application/octet-stream" },
  });
  if (!put.ok) {
    const { detail, flags } = await readPutFailure(put);
    throw new ApiError(put.status, `Upload failed: ${put.status} ${detail}`, flags);
  }
  return normaliseObjectPath(body.objectPath || body.uploadURL);
}
