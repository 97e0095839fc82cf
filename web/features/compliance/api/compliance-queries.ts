import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CaseActionResponse,
  DecisionKind,
  ListSearchInput,
  RescreenRunView,
} from "@/contract/compliance";
import { callEndpoint, hrefOf } from "@/web/lib/api";

const CASES = "/api/admin/compliance/cases";
const LISTS = "/api/admin/compliance/lists";

/** GET /api/admin/compliance/cases?status=…: the queue, newest first. */
export const casesQuery = (status: "open" | "all") =>
  queryOptions({
    queryKey: [CASES, status],
    queryFn: ({ signal }) =>
      callEndpoint("GET /api/admin/compliance/cases", { query: { status } }, { signal }),
    staleTime: 0,
  });
export const useCases = (status: "open" | "all") => useQuery(casesQuery(status));

/** GET /api/admin/compliance/cases/{id}: the case with every hit. */
export const useCase = (id: string | null) =>
  useQuery({
    queryKey: [CASES, "detail", id],
    queryFn: ({ signal }) =>
      callEndpoint("GET /api/admin/compliance/cases/:id", { params: { id: id ?? "" } }, { signal }),
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
    callEndpoint("POST /api/admin/compliance/cases/:id/decisions", { params: { id }, body: input }),
  );

/** POST …/decisions/{decisionId}/approve or /reject. */
export const useCheckDecision = (id: string) =>
  useCaseAction(
    id,
    ({ decisionId, verdict, note }: { decisionId: string; verdict: "approve" | "reject"; note?: string }) =>
      callEndpoint(`POST /api/admin/compliance/cases/:id/decisions/:decisionId/${verdict}`, {
        params: { id, decisionId },
        body: note ? { note } : {},
      }),
  );

export const useAssignCase = (id: string) =>
  useCaseAction(id, (assigneeId: string | null) =>
    callEndpoint("PUT /api/admin/compliance/cases/:id/assignee", { params: { id }, body: { assigneeId } }),
  );

export const useCommentOnCase = (id: string) =>
  useCaseAction(id, (body: string) =>
    callEndpoint("POST /api/admin/compliance/cases/:id/comments", { params: { id }, body: { body } }),
  );

export const useSaveNarrative = (id: string) =>
  useCaseAction(id, (narrative: string) =>
    callEndpoint("PUT /api/admin/compliance/cases/:id/narrative", { params: { id }, body: { narrative } }),
  );

export const useAttachDocument = (id: string) =>
  useCaseAction(id, (input: { documentUrl: string; title: string }) =>
    callEndpoint("POST /api/admin/compliance/cases/:id/documents", { params: { id }, body: input }),
  );

export const useLinkCustomer = (id: string) =>
  useCaseAction(id, (input: { customer: string; note: string }) =>
    callEndpoint("POST /api/admin/compliance/cases/:id/links", { params: { id }, body: input }),
  );

/** GET /api/admin/compliance/members: who a case may be assigned to. */
export const useComplianceMembers = () =>
  useQuery({
    queryKey: ["/api/admin/compliance/members"],
    queryFn: ({ signal }) => callEndpoint("GET /api/admin/compliance/members", {}, { signal }),
  });

/** The SAR draft's download links (the browser fetches them with the session cookie). */
export const reportUrl = (id: string, format: "json" | "pdf") =>
  hrefOf(`GET /api/admin/compliance/cases/:id/report.${format}`, { params: { id } });

const unfinished = (runs: RescreenRunView[] | undefined) =>
  (runs ?? []).some((r) => r.status === "queued" || r.status === "running");

/**
 * GET /api/admin/compliance/lists: loaded versions, newest first, and the latest re-screens; asked again every
 * 2 seconds while a re-screen is queued or running, so its progress moves on the page.
 */
export const useListVersions = () =>
  useQuery({
    queryKey: [LISTS],
    queryFn: ({ signal }) => callEndpoint("GET /api/admin/compliance/lists", {}, { signal }),
    refetchInterval: (query) => (unfinished(query.state.data?.rescreens) ? 2000 : false),
  });

/** POST /api/admin/compliance/search: the active list searched by name, with an optional date of birth and type. */
export const useListSearch = () =>
  useMutation({
    mutationFn: (input: ListSearchInput) =>
      callEndpoint("POST /api/admin/compliance/search", { body: input }),
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
      callEndpoint("POST /api/admin/compliance/lists", {
        body: {
          files: await Promise.all(
            files.map(async (f) => ({ name: f.name, contentBase64: await toBase64(f) })),
          ),
        },
      }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: [LISTS] }),
        client.invalidateQueries({ queryKey: [CASES] }),
      ]),
  });
}
