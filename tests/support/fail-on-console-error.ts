import { afterEach, vi } from "vitest";

// An unexpected console.error is a bug somewhere: fail the test that caused it.
const seen: unknown[][] = [];
vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  seen.push(args);
});

afterEach(() => {
  if (seen.length === 0) return;
  const messages = seen.map((args) => args.map(String).join(" ")).join("\n");
  seen.length = 0;
  throw new Error(`Unexpected console.error:\n${messages}`);
});
