/** The hint under a maker's reason: who reads it. */
export const REVIEWER_SEES_REASON = "Required. The staff member who reviews this sees it.";
