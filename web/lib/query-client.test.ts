import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { type CallMeta, createQueryClient } from "@/web/lib/query-client";

const unauthorized = () => Promise.reject(new ApiError(401, "Not authenticated"));

async function failRead(meta: CallMeta | undefined, { signedIn }: { signedIn: boolean }) {
  const onSignedOut = vi.fn();
  const client = createQueryClient({ onSignedOut });
  if (signedIn) client.setQueryData(CURRENT_USER_KEY, { id: "u1" });
  await client.fetchQuery({ queryKey: ["/api/test"], queryFn: unauthorized, meta }).catch(() => undefined);
  return onSignedOut;
}

describe("the 401 policy each call declares", () => {
  it("sends a signed-in user whose session ended back to sign-in by default", async () => {
    expect(await failRead(undefined, { signedIn: true })).toHaveBeenCalledWith("sign-in");
  });

  it("leaves a signed-out page alone: there was no session to lose", async () => {
    expect(await failRead(undefined, { signedIn: false })).not.toHaveBeenCalled();
  });

  it("sends the visitor home when the call says so, signed in or not", async () => {
    expect(await failRead({ on401: "home" }, { signedIn: false })).toHaveBeenCalledWith("home");
  });

  it("does nothing when the call handles its own 401", async () => {
    expect(await failRead({ on401: "ignore" }, { signedIn: true })).not.toHaveBeenCalled();
  });

  it("applies the same policy to a write", async () => {
    const onSignedOut = vi.fn();
    const client = createQueryClient({ onSignedOut });
    client.setQueryData(CURRENT_USER_KEY, { id: "u1" });
    const write = (meta: CallMeta) =>
      client.getMutationCache().build(client, { mutationFn: unauthorized, meta }).execute(undefined);
    await write({ on401: "ignore" }).catch(() => undefined);
    expect(onSignedOut).not.toHaveBeenCalled();
    await write({}).catch(() => undefined);
    expect(onSignedOut).toHaveBeenCalledWith("sign-in");
  });
});
