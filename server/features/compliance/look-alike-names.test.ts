import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD } from "@/contract/compliance";
import { NameIndex } from "@/server/features/compliance/name-index";
import { nameTokenReadings, nameTokens, surnameTokens } from "@/server/features/compliance/normalise-name";
import { parseRealList } from "@/tests/support/real-ofac-list";

/**
 * Look-alike and invisible-character bypasses (docs/banking.md "Sanctions screening") of "HEATH, Noel Timothy" (SDN
 * 6710), and more of the same kind.
 */
const LOOK_ALIKES = {
  "Greek and Cyrillic letters inside Latin words": "\u039d\u043e\u0435l Timothy \u041d\u0435\u0430th",
  "a zero-width space": "No\u200bel He\u200bath",
  "a soft hyphen": "Noel Timothy Hea\u00adth",
  "letters spelled out with dots": "N.o.e.l H.e.a.t.h",
  "letters spelled out with dots and spaces": "N. o. e. l. Timothy Heath",
  "a word wholly in Cyrillic capitals": "Noel Timothy \u041d\u0415\u0410\u0422\u041d",
  "a word wholly in Greek capitals": "Noel Timothy \u0397\u0395\u0391\u03a4\u0397",
  "Cyrillic small letters that read as small capitals": "Noel \u041d\u0435\u0430\u0442\u043d",
  "Latin small capitals": "\u0274\u1d0f\u1d07\u029f Heath",
  "fullwidth letters": "\uff2e\uff4f\uff45\uff4c Heath",
  "mathematical bold letters": "\ud835\udc0d\ud835\udc28\ud835\udc1e\ud835\udc25 Heath",
  "a word joiner and a byte order mark": "Noel\u2060 Hea\ufeffth",
  "a Hangul filler": "Noe\u3164l Heath",
  "a right-to-left override": "Noel \u202eHeath",
  "an Armenian o and Cherokee capitals": "N\u0585el \u13bb\u13ac\u13aa\u13a2\u13bb",
};

describe("names written to read as another (look-alikes, invisible characters, lone letters)", () => {
  it.each(Object.entries(LOOK_ALIKES))("reads a name with %s as the name it imitates", (_, written) => {
    const readings = nameTokenReadings(written).map((r) => r.join(" "));
    const meant = nameTokens(written.includes("Timothy") ? "Noel Timothy Heath" : "Noel Heath").join(" ");
    expect(readings).toContain(meant);
  });

  it("keeps names wholly in another script as they are, for their own matching", () => {
    expect(nameTokens("Иван Петров")).toEqual(["иван", "петров"]);
    expect(nameTokens("Владимир")).toEqual(["владимир"]);
    expect(nameTokens("Γιώργος Παπαδόπουλος")).toEqual(["γιωργος", "παπαδοπουλος"]);
  });

  it("keeps initials as initials: two lone letters are never joined", () => {
    for (const initials of ["J. R. Smith", "J.R. Smith", "J R Smith"])
      expect(nameTokenReadings(initials), initials).toEqual([["j", "r", "smith"]]);
    expect(nameTokenReadings("John R Smith")).toEqual([["john", "r", "smith"]]);
    expect(nameTokenReadings("Ada Lovelace")).toEqual([["ada", "lovelace"]]);
  });
});

describe("on the real OFAC extract of 2024-05-03", () => {
  let index: NameIndex<{ name: string; entNum: number; tokens: string[]; surname: string[] }>;
  beforeAll(() => {
    const list = parseRealList();
    index = new NameIndex(
      list.names.map((n) => ({
        name: n.name,
        entNum: n.entNum,
        tokens: nameTokens(n.name),
        surname: surnameTokens(n.name),
      })),
    );
  });
  const hitsOf = (written: string) =>
    new Set(
      nameTokenReadings(written).flatMap((tokens) =>
        index.matches(tokens, DEFAULT_SANCTIONS_NAME_THRESHOLD).map((m) => m.name.entNum),
      ),
    );

  it.each(Object.entries(LOOK_ALIKES))("hits HEATH, Noel Timothy written with %s", (_, written) => {
    expect(hitsOf(written)).toContain(6710);
  });

  it("matches initials as before, and three read as a spelled-out word only beside them", () => {
    expect(nameTokenReadings("J. R. R. Tolkien")).toEqual([
      ["j", "r", "r", "tolkien"],
      ["jrr", "tolkien"],
    ]);
    for (const written of ["J. R. Smith", "A. Q. Khan", "M. A. Hassan", "O. B. Laden", "J. R. R. Tolkien"]) {
      const plain = new Set(
        index.matches(nameTokens(written), DEFAULT_SANCTIONS_NAME_THRESHOLD).map((m) => m.name.entNum),
      );
      const read = hitsOf(written);
      for (const entNum of plain) expect(read).toContain(entNum);
      if (!written.includes("Tolkien")) expect(read.size).toBe(plain.size);
    }
  });
});
