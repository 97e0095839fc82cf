import { AtSign, CheckCircle2, UserCheck } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { formatMoney } from "@/contract/money";
import type { CreateTagPaymentResponse, TagLookup } from "@/contract/tag-payments";
import { FormField, fieldAria, focusFieldInError } from "@/web/components/form-field";
import { MoneyField } from "@/web/components/money-input";
import { MoneyShell } from "@/web/components/money-shell";
import { errorMessage } from "@/web/components/toast-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useCreateMoneyRequest } from "@/web/features/tag-payments/api/money-requests";
import { lookUpTag, usePayByTag } from "@/web/features/tag-payments/api/pay-by-tag";
import { ConfirmTagPayment } from "@/web/features/tag-payments/components/confirm-tag-payment";
import { MoneyRequestsCard } from "@/web/features/tag-payments/components/money-requests-card";
import { useTransferLimits } from "@/web/features/transfers/api/get-transfer-limits";
import { useSelfLimits } from "@/web/features/transfers/api/self-limits";
import { newIdempotencyKey } from "@/web/lib/idempotency-key";
import { overLimitMessage } from "@/web/lib/over-limit-message";
import { readAmount } from "@/web/lib/read-amount";
import { isStepUpCancelled } from "@/web/lib/step-up";
import { useDocumentTitle } from "@/web/lib/use-document-title";

function Sent({ payment }: { payment: CreateTagPaymentResponse["payment"] }) {
  // Focus follows the customer to the result; the page's live region says it (docs/architecture.md "Design
  // notes").
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card className="mx-auto grid w-full max-w-lg justify-items-center gap-4 px-6 py-10 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-positive-soft text-positive">
        <CheckCircle2 className="size-7" aria-hidden />
      </span>
      <div className="grid gap-1">
        <h1
          ref={heading}
          tabIndex={-1}
          className="text-xl font-semibold tracking-tight text-ink focus-visible:outline-none"
        >
          Payment sent
        </h1>
        <p className="text-sm text-ink-muted">
          {payment.amount} is in {payment.toName}'s account ({payment.toTag}) now. No fee.
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button asChild>
          <Link href="/dashboard">Go to Dashboard</Link>
        </Button>
        <Button asChild variant="secondary">
          <a href="/pay">Pay someone else</a>
        </Button>
      </div>
    </Card>
  );
}

/**
 * /pay: pay another Pillar customer by $tag, instantly, or ask them for money (decisions 035 and 037). The
 * name is shown back, masked, first. Below, the requests to and from this customer, kept current by the
 * pushed "requests" notice.
 */
export default function PayByTagPage() {
  useDocumentTitle("Pay by $tag");
  const pay = usePayByTag();
  const askFor = useCreateMoneyRequest();
  const selfLimits = useSelfLimits();
  const limits = useTransferLimits();
  const [tag, setTag] = useState("");
  const [found, setFound] = useState<TagLookup | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [payError, setPayError] = useState<string | null>(null);
  // The amount read and checked, waiting in the confirm dialog (a payment is confirmed first).
  const [toConfirm, setToConfirm] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [key, setKey] = useState(newIdempotencyKey);
  const [sent, setSent] = useState<CreateTagPaymentResponse["payment"] | null>(null);

  const onFind = async (event: FormEvent) => {
    event.preventDefault();
    setFound(null);
    setLookupError(null);
    if (!tag.trim()) return setLookupError("Enter a $tag");
    setChecking(true);
    try {
      setFound(await lookUpTag(tag));
    } catch (error) {
      setLookupError(errorMessage(error, "We couldn't check that $tag. Please try again."));
    } finally {
      setChecking(false);
    }
  };

  /**
   * The amount as typed, or null after saying what is wrong with it under the field. A payment must also fit what
   * remains of today's limits; a request moves nothing, so the server alone bounds it.
   */
  const checkedAmount = (isPayment: boolean): number | null => {
    const { cents, error } = readAmount(amount);
    const problem =
      error ??
      (cents === null
        ? "Enter an amount"
        : isPayment && limits.data && cents > limits.data.effectiveRemainingTodayCents
          ? overLimitMessage(limits.data)
          : null);
    setPayError(problem);
    if (problem) focusFieldInError("pay-amount");
    return problem ? null : cents;
  };
  const onReview = (event: FormEvent) => {
    event.preventDefault();
    if (found) setToConfirm(checkedAmount(true));
  };
  const onPay = () => {
    if (!found) return;
    setPayError(null);
    pay.mutate(
      {
        input: { tag: found.tag, amount: amount.trim(), ...(note.trim() ? { note: note.trim() } : {}) },
        idempotencyKey: key,
      },
      {
        onSuccess: (data) => {
          setSent(data.payment);
          setAnnouncement(`Payment sent. ${data.payment.amount} is in ${data.payment.toName}'s account now.`);
        },
        onError: (error) => {
          if (!isStepUpCancelled(error))
            setPayError(errorMessage(error, "The payment was not sent. Please try again."));
        },
      },
    );
  };
  const onRequest = () => {
    if (!found || checkedAmount(false) === null) return;
    askFor.mutate(
      { tag: found.tag, amount: amount.trim(), ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: (data) => {
          toast({
            title: "Request sent",
            description: `You asked ${found.name} (${found.tag}) for ${data.request.amount}.`,
          });
          setAmount("");
          setNote("");
        },
        onError: (error) => setPayError(errorMessage(error, "The request was not sent. Please try again.")),
      },
    );
  };
  // A changed payment is a new one: it gets its own key.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setKey(newIdempotencyKey());
    setPayError(null);
  };

  return (
    <MoneyShell title="Pay by $tag" tab="/send-money">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {sent ? (
        <Sent payment={sent} />
      ) : (
        <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="grid min-w-0 gap-6">
            <Card>
              <CardHeader>
                <h1 className="text-base font-semibold leading-tight text-ink">Pay a Pillar customer</h1>
                <CardDescription>
                  Instant and free between Pillar accounts. Check who you are paying, or asking, first.
                </CardDescription>
              </CardHeader>
              <CardContent className="grid gap-6">
                <form className="flex flex-col gap-2 sm:flex-row sm:items-start" onSubmit={onFind} noValidate>
                  <FormField id="pay-tag" label="Their $tag" error={lookupError} className="flex-1">
                    <Input
                      id="pay-tag"
                      {...fieldAria("pay-tag", { error: lookupError })}
                      placeholder="$jordan"
                      autoComplete="off"
                      autoCapitalize="none"
                      spellCheck={false}
                      value={tag}
                      onChange={(e) => {
                        setTag(e.target.value);
                        setFound(null);
                        setLookupError(null);
                        setKey(newIdempotencyKey());
                      }}
                    />
                  </FormField>
                  <Button type="submit" variant="secondary" disabled={checking} className="sm:mt-7">
                    {checking ? <Spinner className="size-4" label="Checking" /> : <AtSign aria-hidden />}
                    Check $tag
                  </Button>
                </form>

                {found ? (
                  <form className="grid gap-4" onSubmit={onReview} noValidate>
                    <p
                      className="flex items-center gap-3 rounded-lg border border-line bg-canvas p-3 text-sm text-ink"
                      role="status"
                    >
                      <UserCheck className="size-5 shrink-0 text-positive" aria-hidden />
                      <span>
                        {found.tag} is <strong>{found.name}</strong>
                      </span>
                    </p>
                    <div className="grid gap-4 sm:grid-cols-2">
                      <MoneyField
                        id="pay-amount"
                        label="Amount"
                        hint={
                          limits.data
                            ? `You can send ${limits.data.effectiveRemainingToday} more today.`
                            : undefined
                        }
                        value={amount}
                        onChange={edit(setAmount)}
                        error={payError}
                      />
                      <FormField id="pay-note" label="Note (optional)">
                        <Input
                          id="pay-note"
                          maxLength={140}
                          value={note}
                          onChange={(e) => edit(setNote)(e.target.value)}
                        />
                      </FormField>
                    </div>
                    <div className="flex flex-col gap-2 sm:flex-row">
                      <Button type="submit" disabled={pay.isPending || !amount.trim()} className="sm:flex-1">
                        {pay.isPending ? <Spinner className="size-4 text-white" label="Sending" /> : null}
                        Pay {found.name}
                      </Button>
                      <Button
                        type="button"
                        variant="secondary"
                        disabled={askFor.isPending || !amount.trim()}
                        onClick={onRequest}
                      >
                        {askFor.isPending ? <Spinner className="size-4" label="Sending the request" /> : null}
                        Request from {found.name}
                      </Button>
                    </div>
                  </form>
                ) : null}
                {found && toConfirm !== null ? (
                  <ConfirmTagPayment
                    amount={formatMoney(toConfirm)}
                    payee={found}
                    note={note.trim()}
                    onConfirm={onPay}
                    onClose={() => setToConfirm(null)}
                  />
                ) : null}
              </CardContent>
            </Card>
            <MoneyRequestsCard />
          </div>
          <Card>
            <CardHeader>
              <CardTitle>Good to know</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid list-disc gap-2 pl-5 text-sm text-ink-muted">
                <li>The money arrives at once and cannot be called back.</li>
                <li>
                  It counts toward your $2,000 daily limit
                  {selfLimits.data?.personalDailyLimit
                    ? ` and your own ${selfLimits.data.personalDailyLimit}`
                    : ""}
                  .
                </li>
                <li>Both of you see the payment with each other's $tag.</li>
                <li>
                  A request asks them to pay you; they can pay it or decline it, and you can cancel it while
                  it waits.
                </li>
              </ul>
            </CardContent>
          </Card>
        </div>
      )}
    </MoneyShell>
  );
}
