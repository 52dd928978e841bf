/** Formatting shared by the Tests pages; UTC so the server render and the browser agree. */
const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? `${dateFormat.format(new Date(iso))} UTC` : "—";
}

export function formatPercent(value: number): string {
  return `${Math.round(value * 10) / 10}%`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
