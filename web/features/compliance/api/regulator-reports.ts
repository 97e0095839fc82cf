import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  FileOfacReportInput,
  OfacReport,
  OfacReportsResponse,
  SarDetails,
  SarDetailsInput,
  SarDetailsResponse,
} from "@/contract/compliance";
import { apiRequest } from "@/web/lib/api";

// Reports a regulator asks for (decision 055): the SAR's FinCEN fields and export, the OFAC reports due.
const CASES = "/api/admin/compliance/cases";
const REPORTS = "/api/admin/compliance/ofac-reports";
const sarUrl = (caseId: string) => `${CASES}/${encodeURIComponent(caseId)}/sar`;

/** GET …/cases/{id}/sar: the fields compliance recorded, the SSN and ID number masked, and the clock. */
export const useSarDetails = (caseId: string) =>
  useQuery({
    queryKey: [CASES, "sar", caseId],
    queryFn: ({ signal }) => apiRequest<SarDetails>("GET", sarUrl(caseId), undefined, { signal }),
  });

/** PUT …/cases/{id}/sar: the case's clock may move (60 days, continuing), so the case and queue refetch. */
export function useSaveSarDetails(caseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SarDetailsInput) => apiRequest<SarDetailsResponse>("PUT", sarUrl(caseId), input),
    onSuccess: (res) => client.setQueryData([CASES, "sar", caseId], res.sar),
    onSettled: () => client.invalidateQueries({ queryKey: [CASES] }),
  });
}

/** FinCEN's batch XML for the case (full SSN and ID number; the server audits the download). */
export const sarXmlUrl = (caseId: string) => `${CASES}/${encodeURIComponent(caseId)}/report.xml`;

/** GET /api/admin/compliance/ofac-reports?status=…: due (earliest first) or filed (latest first). */
export const useOfacReports = (status: "due" | "filed") =>
  useQuery({
    queryKey: [REPORTS, status],
    queryFn: ({ signal }) =>
      apiRequest<OfacReportsResponse>("GET", `${REPORTS}?status=${status}`, undefined, { signal }),
    staleTime: 0,
  });

/** POST …/ofac-reports/{id}/filed: OFAC's reference and the day it was filed. */
export function useFileOfacReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: FileOfacReportInput & { id: string }) =>
      apiRequest<{ message: string; report: OfacReport }>(
        "POST",
        `${REPORTS}/${encodeURIComponent(id)}/filed`,
        input,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: [REPORTS] }),
  });
}

/** The annual report of blocked property as of June 30 of `year`, as CSV. */
export const annualReportUrl = (year: number) => `${REPORTS}/annual.csv?year=${year}`;
