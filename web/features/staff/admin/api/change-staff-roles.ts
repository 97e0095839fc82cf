import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AddStaffInput, StaffMember, StaffRole } from "@/contract/staff";
import { ADMIN_STATS_KEY, ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { STAFF_KEY } from "@/web/features/staff/admin/api/get-staff";
import { callEndpoint } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { withStepUp } from "@/web/lib/step-up";

// Granting and revoking are security changes: the server asks an owner with a second factor to prove it again.

/** POST /api/admin/staff: roles for an existing, verified account found by e-mail. */
export function addStaff(input: AddStaffInput) {
  return withStepUp(() => callEndpoint("POST /api/admin/staff", { body: input }));
}

/** The roles to add and to take away from one staff member; grants go first, so an owner never drops to none. */
export interface RoleChange {
  userId: string;
  grant: StaffRole[];
  revoke: StaffRole[];
}

export async function changeStaffRoles({ userId, grant, revoke }: RoleChange): Promise<StaffMember | null> {
  const params = { userId };
  let member: StaffMember | null = null;
  if (grant.length > 0)
    member = await withStepUp(() =>
      callEndpoint("POST /api/admin/staff/:userId/grant", { params, body: { roles: grant } }),
    );
  if (revoke.length > 0)
    member = await withStepUp(() =>
      callEndpoint("POST /api/admin/staff/:userId/revoke", { params, body: { roles: revoke } }),
    );
  return member;
}

function useRefreshStaff() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: STAFF_KEY });
    void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    void queryClient.invalidateQueries({ queryKey: ADMIN_STATS_KEY });
    // An owner may have changed their own roles: the tabs follow the session's roles.
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  };
}

export function useAddStaff() {
  const refresh = useRefreshStaff();
  return useMutation({ mutationFn: addStaff, meta: { on401: "ignore" }, onSettled: refresh });
}

export function useChangeStaffRoles() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: changeStaffRoles,
    meta: { on401: "ignore" },
    onSettled: refresh,
  });
}
