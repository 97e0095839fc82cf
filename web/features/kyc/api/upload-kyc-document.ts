import type { UploadDocumentInput, UploadDocumentResponse } from "@/contract/kyc";
import { apiRequest } from "@/web/lib/api";

/** POST /api/kyc/upload-document: attaches an uploaded file to the user's existing KYC record (spec §7). */
export function uploadKycDocument(input: UploadDocumentInput) {
  return apiRequest<UploadDocumentResponse>("POST", "/api/kyc/upload-document", input);
}
