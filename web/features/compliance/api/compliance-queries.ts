import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ComplianceCase,
  ComplianceCaseDetail,
  DecideCaseInput,
  SanctionsListVersion,
  UploadListResponse,
} from "@/contract/compliance";
import type { Page } from "@/contract/pages";
import { apiRequest } from "@/web/lib/api";

const CASES = "/api/admin/compliance/cases";
const LISTS = "/api/admin/compliance/lists";

/** GET /api/admin/compliance/cases?status=…: the queue, newest first. */
export const casesQuery = (status: "open" | "all") =>
  queryOptions({
    queryKey: [CASES, status],
    queryFn: ({ signal }) =>
      apiRequest<Page<ComplianceCase>>("GET", `${CASES}?status=${status}`, undefined, { signal }),
    staleTime: 0,
  });
export const useCases = (status: "open" | "all") => useQuery(casesQuery(status));

/** GET /api/admin/compliance/cases/{id}: the case with every hit. */
export const useCase = (id: string | null) =>
  useQuery({
    queryKey: [CASES, "detail", id],
    queryFn: ({ signal }) => apiRequest<ComplianceCaseDetail>("GET", `${CASES}/${id}`, undefined, { signal }),
    enabled: id !== null,
  });

/** POST /api/admin/compliance/cases/{id}/decision. */
export function useDecideCase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: DecideCaseInput & { id: string }) =>
      apiRequest<ComplianceCaseDetail>("POST", `${CASES}/${encodeURIComponent(id)}/decision`, input),
    onSettled: () => client.invalidateQueries({ queryKey: [CASES] }),
  });
}

/** GET /api/admin/compliance/lists: loaded versions, newest first. */
export const useListVersions = () =>
  useQuery({
    queryKey: [LISTS],
    queryFn: ({ signal }) =>
      apiRequest<{ items: SanctionsListVersion[] }>("GET", LISTS, undefined, { signal }),
  });

/** The files' bytes as base64, so the server decodes them (UTF-8 or Windows-1252) exactly as the CLI does. */
async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** POST /api/admin/compliance/lists with OFAC's files: a new active version, then a re-screen. */
export function useUploadList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (files: File[]) =>
      apiRequest<UploadListResponse>("POST", LISTS, {
        files: await Promise.all(
          files.map(async (f) => ({ name: f.name, contentBase64: await toBase64(f) })),
        ),
      }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: [LISTS] }),
        client.invalidateQueries({ queryKey: [CASES] }),
      ]),
  });
}
