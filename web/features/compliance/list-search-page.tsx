import { ArrowLeft, Search } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import type { ListSearchInput, ListSearchResponse } from "@/contract/compliance";
import { MAIN_PROPS, SkipLink } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Container } from "@/web/components/ui/container";
import { Input, inputClassName } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { LogoMark } from "@/web/components/ui/logo";
import { useListSearch } from "@/web/features/compliance/api/compliance-queries";
import { ScoreParts } from "@/web/features/compliance/components/score-parts";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/**
 * /admin/compliance/search: the active list searched by name, with an optional date of birth and type, by the
 * matcher and threshold every screening point uses (docs/banking.md "Sanctions screening"). Each search is audited.
 */
export function ListSearchPage() {
  useDocumentTitle("List search");
  const search = useListSearch();
  const ids = { name: useId(), dob: useId(), type: useId(), error: useId() };
  const [name, setName] = useState("");
  const [dob, setDob] = useState("");
  const [type, setType] = useState<"" | "person" | "entity">("");
  const [asked, setAsked] = useState<ListSearchInput | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input: ListSearchInput = { name, dob: dob || null, type: type || null };
    setAsked(input);
    search.mutate(input);
  };

  return (
    <div className="min-h-dvh bg-canvas">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">List search</h1>
              <p className="hidden truncate text-xs text-ink-muted sm:block">
                The active sanctions list, by name
              </p>
            </div>
          </div>
          <Button asChild variant="secondary" size="sm">
            <Link href="/admin/compliance">
              <ArrowLeft aria-hidden />
              <span className="hidden sm:inline">Back to Compliance</span>
              <span className="sm:hidden">Back</span>
            </Link>
          </Button>
        </Container>
      </header>
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          <Card>
            <CardHeader>
              <CardTitle>Search the list</CardTitle>
              <CardDescription>
                The same matcher and threshold as every screening point. A date of birth is evidence: the same
                date raises the score, one far away lowers it. Each search is recorded in the audit log.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <form
                onSubmit={onSubmit}
                className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
                aria-describedby={search.isError ? ids.error : undefined}
              >
                <div className="grid gap-1.5">
                  <Label htmlFor={ids.name}>Name</Label>
                  <Input
                    id={ids.name}
                    name="name"
                    required
                    maxLength={200}
                    autoComplete="off"
                    value={name}
                    onChange={(e) => setName(e.target.value)}
                  />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={ids.dob}>Date of birth (optional)</Label>
                  <Input
                    id={ids.dob}
                    name="dob"
                    type="date"
                    value={dob}
                    onChange={(e) => setDob(e.target.value)}
                  />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={ids.type}>Type</Label>
                  <select
                    id={ids.type}
                    name="type"
                    className={inputClassName}
                    value={type}
                    onChange={(e) => setType(e.target.value as "" | "person" | "entity")}
                  >
                    <option value="">Any</option>
                    <option value="person">Person</option>
                    <option value="entity">Company or vessel</option>
                  </select>
                </div>
                <Button type="submit" disabled={search.isPending}>
                  <Search aria-hidden />
                  {search.isPending ? "Searching…" : "Search"}
                </Button>
              </form>
              {search.isError ? (
                <p id={ids.error} role="alert" className="mt-3 text-sm text-negative">
                  {search.error.message}
                </p>
              ) : null}
            </CardContent>
          </Card>
          {search.data && asked ? <Results asked={asked} answer={search.data} /> : null}
        </Container>
      </main>
    </div>
  );
}

function Results({ asked, answer }: { asked: ListSearchInput; answer: ListSearchResponse }) {
  const n = answer.matches.length;
  return (
    // min-w-0: a grid item would otherwise grow to the table and push the page sideways on a phone.
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>
          <span role="status" aria-live="polite">
            {n === 0 ? "No match" : `${n} ${n === 1 ? "match" : "matches"}`} for “{asked.name}”
          </span>
        </CardTitle>
        <CardDescription>
          List version {answer.listVersion} · score {answer.threshold.toFixed(2)} or more
          {answer.truncated ? ` · the best ${n} shown` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {n === 0 ? (
          <p className="text-sm text-ink-muted">
            Nothing on the active list scores at or above the threshold.
          </p>
        ) : (
          <section className="overflow-x-auto" aria-label="Matches">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <caption className="sr-only">Listed entries matching {asked.name}, best first</caption>
              <thead className="text-xs text-ink-muted">
                <tr className="border-b border-line">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Score
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Listed name
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Entry
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Why
                  </th>
                </tr>
              </thead>
              <tbody>
                {answer.matches.map((m) => (
                  <tr
                    key={`${m.source}:${m.entNum}`}
                    className="border-b border-line align-top last:border-0"
                  >
                    <td className="py-3 pr-3 font-semibold tabular-nums text-ink">{m.score.toFixed(3)}</td>
                    <td className="py-3 pr-3">
                      <span className="block font-medium text-ink">{m.listedName}</span>
                      {m.primaryName !== m.listedName ? (
                        <span className="block text-xs text-ink-muted">alias of {m.primaryName}</span>
                      ) : null}
                    </td>
                    <td className="py-3 pr-3 text-ink-muted">
                      <span className="block tabular-nums">
                        {m.source} #{m.entNum} · {m.type}
                      </span>
                      <span className="block">{m.programs || "no program"}</span>
                      {m.birthDates.length > 0 ? (
                        <span className="block tabular-nums">DOB {m.birthDates.join(", ")}</span>
                      ) : null}
                    </td>
                    <td className="py-3">
                      <ScoreParts
                        parts={m.parts}
                        label={`Score parts: ${m.listedName} scored ${m.score.toFixed(3)}`}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
