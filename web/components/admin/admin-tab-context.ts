import { createContext, useContext } from "react";

/**
 * Opens another tab of the admin page (a "waiting in Approvals" link in a tab of its own); null outside the page.
 * Shared here so a feature's tab never imports the admin feature that lays the tabs out.
 */
export const OpenAdminTabContext = createContext<((tab: string) => void) | null>(null);

export function useOpenAdminTab(): ((tab: string) => void) | null {
  return useContext(OpenAdminTabContext);
}
