import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, refetchOnMountUnlessFromPage } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { type CallMeta, createQueryClient, seedFirstReads } from "@/web/lib/query-client";

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

describe("the answers a first load carries", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("are in the cache under their URL before anything renders", () => {
    const client = createQueryClient();
    seedFirstReads(client, {
      "/api/test/seed-user": { body: { firstName: "Ada" } },
      "/api/test/seed-summary": { body: { balanceCents: 1234 }, etag: '"s1"' },
    });
    expect(client.getQueryData(["/api/test/seed-user"])).toEqual({ firstName: "Ada" });
    expect(client.getQueryData(["/api/test/seed-summary"])).toEqual({ balanceCents: 1234 });
  });

  it("are not asked for again by the page's own first mount, but are once fetched data replaced them or they aged", async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    seedFirstReads(client, { "/api/test/seed-recent": { body: [1] } });
    const refetch = refetchOnMountUnlessFromPage("always");
    const query = () => client.getQueryCache().find({ queryKey: ["/api/test/seed-recent"] })!;
    expect(refetch(query())).toBe(false);
    vi.advanceTimersByTime(10_001);
    expect(refetch(query())).toBe("always");

    seedFirstReads(client, { "/api/test/seed-recent": { body: [1] } });
    expect(refetch(query())).toBe(false);
    vi.advanceTimersByTime(1);
    await client.fetchQuery({ queryKey: ["/api/test/seed-recent"], queryFn: () => [2], staleTime: 0 });
    expect(refetchOnMountUnlessFromPage(true)(query())).toBe(true);
    // A read the page did not carry refetches as it always did.
    client.setQueryData(["/api/test/not-seeded"], [3]);
    expect(refetch(client.getQueryCache().find({ queryKey: ["/api/test/not-seeded"] })!)).toBe("always");
  });
});
