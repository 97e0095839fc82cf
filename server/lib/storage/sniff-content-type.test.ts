import { describe, expect, it } from "vitest";
import { SNIFF_BYTES, sniffContentType } from "@/server/lib/storage/sniff-content-type";
import { EXE, GIF, HTML, JPEG, PDF, PNG, WEBP } from "@/tests/support/files";

describe("sniffContentType", () => {
  it.each([
    ["image/jpeg", JPEG],
    ["image/png", PNG],
    ["image/gif", GIF],
    ["image/webp", WEBP],
    ["application/pdf", PDF],
  ])("recognises %s from its first bytes", (type, bytes) => {
    expect(sniffContentType(bytes.subarray(0, SNIFF_BYTES))).toBe(type);
  });

  it.each([
    ["an EXE", EXE],
    ["HTML", HTML],
    ["SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ["a RIFF that is not WebP (WAV)", Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1")],
    ["a truncated PNG signature", PNG.subarray(0, 5)],
    ["nothing", Buffer.alloc(0)],
    ["a ZIP", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0])],
  ])("refuses %s", (_name, bytes) => {
    expect(sniffContentType(bytes)).toBeNull();
  });
});
