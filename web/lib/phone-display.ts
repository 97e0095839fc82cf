// One display format for phone numbers (contract/phone.ts: national for US numbers, international for
// others). Its number metadata is ~30 KB gzip, so it loads on its own the first time a number is shown
// instead of with the page: until then the stored E.164 form is shown.
import { useEffect, useState } from "react";

type FormatPhone = (stored: string) => string;

let loaded: FormatPhone | undefined;
let loading: Promise<FormatPhone> | undefined;

function loadFormatPhone(): Promise<FormatPhone> {
  loading ??= import("@/contract/phone").then((m) => {
    loaded = m.formatPhone;
    return m.formatPhone;
  });
  return loading;
}

/** A stored phone number as shown everywhere ("(415) 555-0132", "+44 20 7946 0958"). */
export function usePhoneDisplay(stored: string): string {
  const [format, setFormat] = useState<FormatPhone | undefined>(() => loaded);
  useEffect(() => {
    if (format) return;
    let live = true;
    loadFormatPhone().then(
      (f) => live && setFormat(() => f),
      () => {}, // the chunk failed to load: the stored form stays, which is still a correct number
    );
    return () => {
      live = false;
    };
  }, [format]);
  return format ? format(stored) : stored;
}

/** `<PhoneNumber stored="+14155550132" />` → "(415) 555-0132". */
export function PhoneNumber({ stored }: { stored: string }) {
  return usePhoneDisplay(stored);
}
