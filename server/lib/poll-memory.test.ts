import { describe, expect, it } from "vitest";
import { PollMemory } from "@/server/lib/poll-memory";

const fresh = (etag: string) => async () => ({ etag, notModified: false as const, body: etag });

describe("poll memory", () => {
  it("answers a current ETag from memory until the TTL, then asks again", async () => {
    let now = 1_000;
    const memory = new PollMemory(5_000, () => now);
    let loads = 0;
    const load = async () => {
      loads++;
      return { etag: '"a"', notModified: false as const, body: 1 };
    };
    await memory.answer("u1", "summary", undefined, load);
    expect(await memory.answer("u1", "summary", '"a"', load)).toEqual({ etag: '"a"', notModified: true });
    now += 4_999;
    await memory.answer("u1", "summary", '"a"', load);
    expect(loads).toBe(1);
    now += 1;
    await memory.answer("u1", "summary", '"a"', load);
    expect(loads).toBe(2);
  });

  it("never answers one user's ETag for another", async () => {
    const memory = new PollMemory();
    await memory.answer("alice", "recent", undefined, fresh('"x"'));
    const bob = await memory.answer("bob", "recent", '"x"', fresh('"y"'));
    expect(bob).toMatchObject({ notModified: false, etag: '"y"' });
  });

  it("does not keep an answer read while a write to the same user landed", async () => {
    const memory = new PollMemory();
    let release!: () => void;
    const slow = memory.answer("u1", "recent", undefined, async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      return { etag: '"before-write"', notModified: false as const, body: 0 };
    });
    await Promise.resolve();
    memory.changed({ userIds: ["u1"] });
    release();
    await slow;
    const next = await memory.answer("u1", "recent", '"before-write"', fresh('"after-write"'));
    expect(next).toMatchObject({ notModified: false, etag: '"after-write"' });
  });

  it("forgets everyone on an all-users change and tells the broadcasters", async () => {
    const memory = new PollMemory();
    const sent: unknown[] = [];
    memory.addBroadcaster((change) => sent.push(change));
    await memory.answer("u1", "kyc", undefined, fresh('"k"'));
    memory.changed({ all: true });
    memory.changed({ userIds: ["u2"] }, { broadcast: false });
    expect(sent).toEqual([{ all: true }]);
    expect(await memory.answer("u1", "kyc", '"k"', fresh('"k2"'))).toMatchObject({ notModified: false });
  });

  it("keeps a bounded number of entries per user, whatever ?after= values a client invents", async () => {
    const memory = new PollMemory();
    let loads = 0;
    const load = async () => {
      loads++;
      return { etag: '"c"', notModified: false as const };
    };
    for (let after = 0; after < 100; after++) await memory.answer("u1", `chat:${after}`, undefined, load);
    const internals = memory as unknown as { users: Map<string, { etags: Map<string, unknown> }> };
    expect(internals.users.get("u1")!.etags.size).toBeLessThanOrEqual(16);
    expect(loads).toBe(100);
  });
});
