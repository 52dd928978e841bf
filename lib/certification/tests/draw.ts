/**
 * How many questions each domain gets: equal parts, the remainder one each to the first
 * domains (in the order given).
 */
export function splitEvenly(total: number, domainIds: number[]): Map<number, number> {
  const base = Math.floor(total / domainIds.length);
  const remainder = total % domainIds.length;
  return new Map(domainIds.map((id, index) => [id, base + (index < remainder ? 1 : 0)]));
}

/** Fisher–Yates with crypto randomness. */
export function shuffle<T>(items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

function randomInt(max: number): number {
  const buffer = new Uint32Array(1);
  crypto.getRandomValues(buffer);
  return buffer[0] % max;
}
