/** Formatting shared by the Tests pages (dates: components/format/date.ts). */

export function formatPercent(value: number): string {
  return `${Math.round(value * 10) / 10}%`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
