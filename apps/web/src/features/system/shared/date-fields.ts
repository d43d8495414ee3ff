/**
 * Values of the date filters (components/date-inputs): days as YYYY-MM-DD and date-times as YYYY-MM-DDTHH:mm, both
 * local time, and the instants the server is sent for them.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** Today as YYYY-MM-DD (local), the latest day a last-login range can reach. */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The start of a local day (YYYY-MM-DD) as an ISO instant; undefined when none. */
export function dayStartIso(day: string | undefined): string | undefined {
  return localIso(day && `${day}T00:00:00.000`);
}

/** The end of a local day (YYYY-MM-DD) as an ISO instant; undefined when none. */
export function dayEndIso(day: string | undefined): string | undefined {
  return localIso(day && `${day}T23:59:59.999`);
}

/** A local date-time (YYYY-MM-DDTHH:mm) as an ISO instant; undefined when none. */
export function localIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
