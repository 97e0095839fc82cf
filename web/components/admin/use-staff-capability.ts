import { canUse, type StaffCapability } from "@/contract/staff-capabilities";
import { useCurrentUser } from "@/web/lib/current-user";

/** Whether the signed-in staff member's roles allow a tab or button (the server refuses the rest anyway). */
export function useStaffCapability(capability: StaffCapability): boolean {
  const { data: user } = useCurrentUser();
  return canUse(user?.staffRoles ?? [], capability);
}
