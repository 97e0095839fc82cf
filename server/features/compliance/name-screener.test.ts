import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANCTIONS_NAME_THRESHOLD as T } from "@/contract/compliance";
import { indexOfParsedList, type SanctionsIndex } from "@/server/features/compliance/list-index";
import { nameHits, nameScreener, type ScreenName } from "@/server/features/compliance/screen";
import { parseRealList } from "@/tests/support/real-ofac-list";

// Decision 062: the re-screen looks a batch's distinct names up once and weighs each customer's date
// of birth on the shared candidates. It must give exactly the hits nameHits gives each customer alone.
let index: SanctionsIndex;
beforeAll(() => {
  index = indexOfParsedList(parseRealList());
}, 120_000);

describe("a batch's name screener", () => {
  it("answers each subject what nameHits answers, whatever the names it saw before", () => {
    // Ratko MLADIC's listed date of birth, a near one, a far one and none; a shared common name; an entity.
    const subjects: ScreenName[][] = [
      [{ value: "Ratko Mladic", type: "person", dateOfBirth: "1942-03-12" }],
      [{ value: "Ratko Mladic", type: "person", dateOfBirth: "1943-03-12" }],
      [{ value: "Ratko Mladic", type: "person", dateOfBirth: "1980-01-01" }],
      [{ value: "Ratko Mladic", type: "person", dateOfBirth: null }],
      [{ value: "Ratko Mladic", type: null }],
      [
        { value: "Mohammed Ali Hussein", type: "person", dateOfBirth: "1970-05-05" },
        { value: "Banco Nacional de Cuba", type: "entity", dateOfBirth: null },
      ],
      [{ value: "Mohammed Ali Hussein", type: "person", dateOfBirth: "1965-01-01" }],
      [{ value: "Jane Smith", type: "person", dateOfBirth: "1990-02-02" }],
    ];
    const screen = nameScreener(index, T);
    let hitCount = 0;
    for (const names of [...subjects, ...subjects]) {
      const alone = nameHits(index, { names }, T);
      expect(screen({ names })).toEqual(alone);
      hitCount += alone.length;
    }
    // Not vacuous: the listed person is found, and the date of birth changed the answers.
    expect(hitCount).toBeGreaterThan(4);
    const scores = subjects.slice(0, 4).map((names) => nameHits(index, { names }, T)[0]?.score ?? 0);
    expect(new Set(scores).size).toBeGreaterThan(1);
  });
});
