import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CaseActionResponse,
  ComplianceCase,
  ComplianceCaseDetail,
  DecisionKind,
  ListSearchInput,
  ListSearchResponse,
  RescreenRunView,
  SanctionsListVersion,
  UploadListResponse,
} from "@/contract/compliance";
import type { Page } from "@/contract/pages";
import { apiRequest } from "@/web/lib/api";

const CASES = "/api/admin/compliance/cases";
const LISTS = "/api/admin/compliance/lists";
const caseUrl = (id: string, rest = "") => `${CASES}/${encodeURIComponent(id)}${rest}`;

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
    queryFn: ({ signal }) =>
      apiRequest<ComplianceCaseDetail>("GET", caseUrl(id ?? ""), undefined, { signal }),
    enabled: id !== null,
  });

/** Every step on a case answers the whole case: it replaces the cached detail, and the queue refetches. */
function useCaseAction<I>(id: string, send: (input: I) => Promise<CaseActionResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (res) => client.setQueryData([CASES, "detail", id], res.case),
    onSettled: () => client.invalidateQueries({ queryKey: [CASES] }),
  });
}

/** POST …/decisions: a proposal that waits for a second compliance member (a reject or block names its transfer). */
export const useProposeDecision = (id: string) =>
  useCaseAction(id, (input: { decision: DecisionKind; note: string; transferId?: string }) =>
    apiRequest<CaseActionResponse>("POST", caseUrl(id, "/decisions"), input),
  );

/** POST …/decisions/{decisionId}/approve or /reject. */
export const useCheckDecision = (id: string) =>
  useCaseAction(
    id,
    ({ decisionId, verdict, note }: { decisionId: string; verdict: "approve" | "reject"; note?: string }) =>
      apiRequest<CaseActionResponse>(
        "POST",
        caseUrl(id, `/decisions/${encodeURIComponent(decisionId)}/${verdict}`),
        note ? { note } : {},
      ),
  );

export const useAssignCase = (id: string) =>
  useCaseAction(id, (assigneeId: string | null) =>
    apiRequest<CaseActionResponse>("PUT", caseUrl(id, "/assignee"), { assigneeId }),
  );

export const useCommentOnCase = (id: string) =>
  useCaseAction(id, (body: string) =>
    apiRequest<CaseActionResponse>("POST", caseUrl(id, "/comments"), { body }),
  );

export const useSaveNarrative = (id: string) =>
  useCaseAction(id, (narrative: string) =>
    apiRequest<CaseActionResponse>("PUT", caseUrl(id, "/narrative"), { narrative }),
  );

export const useAttachDocument = (id: string) =>
  useCaseAction(id, (input: { documentUrl: string; title: string }) =>
    apiRequest<CaseActionResponse>("POST", caseUrl(id, "/documents"), input),
  );

export const useLinkCustomer = (id: string) =>
  useCaseAction(id, (input: { customer: string; note: string }) =>
    apiRequest<CaseActionResponse>("POST", caseUrl(id, "/links"), input),
  );

/** GET /api/admin/compliance/members: who a case may be assigned to. */
export const useComplianceMembers = () =>
  useQuery({
    queryKey: ["/api/admin/compliance/members"],
    queryFn: ({ signal }) =>
      apiRequest<{ items: { id: string; email: string }[] }>(
        "GET",
        "/api/admin/compliance/members",
        undefined,
        {
          signal,
        },
      ),
  });

/** The SAR draft's download links (the browser fetches them with the session cookie). */
export const reportUrl = (id: string, format: "json" | "pdf") => caseUrl(id, `/report.${format}`);

const unfinished = (runs: RescreenRunView[] | undefined) =>
  (runs ?? []).some((r) => r.status === "queued" || r.status === "running");

/**
 * GET /api/admin/compliance/lists: loaded versions, newest first, and the latest re-screens; asked again every
 * 2 seconds while a re-screen is queued or running, so its progress moves on the page.
 */
export const useListVersions = () =>
  useQuery({
    queryKey: [LISTS],
    queryFn: ({ signal }) =>
      apiRequest<{ items: SanctionsListVersion[]; rescreens: RescreenRunView[] }>("GET", LISTS, undefined, {
        signal,
      }),
    refetchInterval: (query) => (unfinished(query.state.data?.rescreens) ? 2000 : false),
  });

/** POST /api/admin/compliance/search: the active list searched by name, with an optional date of birth and type. */
export const useListSearch = () =>
  useMutation({
    mutationFn: (input: ListSearchInput) =>
      apiRequest<ListSearchResponse>("POST", "/api/admin/compliance/search", input),
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
