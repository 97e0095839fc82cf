import type { UploadDocumentInput } from "@/contract/kyc";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/kyc/upload-document: attaches an uploaded file to the user's existing KYC record (spec §7). */
export function uploadKycDocument(input: UploadDocumentInput) {
  return callEndpoint("POST /api/kyc/upload-document", { body: input });
}
