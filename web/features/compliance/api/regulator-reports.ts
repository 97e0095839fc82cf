import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FileOfacReportInput, SarDetailsInput } from "@/contract/compliance";
import { callEndpoint, hrefOf } from "@/web/lib/api";

// Reports a regulator asks for (decision 055): the SAR's FinCEN fields and export, the OFAC reports due.
const CASES = "/api/admin/compliance/cases";
const REPORTS = "/api/admin/compliance/ofac-reports";

/** GET …/cases/{id}/sar: the fields compliance recorded, the SSN and ID number masked, and the clock. */
export const useSarDetails = (caseId: string) =>
  useQuery({
    queryKey: [CASES, "sar", caseId],
    queryFn: ({ signal }) =>
      callEndpoint("GET /api/admin/compliance/cases/:id/sar", { params: { id: caseId } }, { signal }),
  });

/** PUT …/cases/{id}/sar: the case's clock may move (60 days, continuing), so the case and queue refetch. */
export function useSaveSarDetails(caseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SarDetailsInput) =>
      callEndpoint("PUT /api/admin/compliance/cases/:id/sar", { params: { id: caseId }, body: input }),
    onSuccess: (res) => client.setQueryData([CASES, "sar", caseId], res.sar),
    onSettled: () => client.invalidateQueries({ queryKey: [CASES] }),
  });
}

/** FinCEN's batch XML for the case (full SSN and ID number; the server audits the download). */
export const sarXmlUrl = (caseId: string) =>
  hrefOf("GET /api/admin/compliance/cases/:id/report.xml", { params: { id: caseId } });

/** GET /api/admin/compliance/ofac-reports?status=…: due (earliest first) or filed (latest first). */
export const useOfacReports = (status: "due" | "filed") =>
  useQuery({
    queryKey: [REPORTS, status],
    queryFn: ({ signal }) =>
      callEndpoint("GET /api/admin/compliance/ofac-reports", { query: { status } }, { signal }),
    staleTime: 0,
  });

/** POST …/ofac-reports/{id}/filed: OFAC's reference and the day it was filed. */
export function useFileOfacReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: FileOfacReportInput & { id: string }) =>
      callEndpoint("POST /api/admin/compliance/ofac-reports/:id/filed", { params: { id }, body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: [REPORTS] }),
  });
}

/** The annual report of blocked property as of June 30 of `year`, as CSV. */
export const annualReportUrl = (year: number) =>
  hrefOf("GET /api/admin/compliance/ofac-reports/annual.csv", { query: { year } });
