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

/** `count` distinct items picked at random (crypto), in random order: a partial Fisher–Yates. */
export function sample<T>(items: readonly T[], count: number): T[] {
  if (count > items.length) throw new RangeError(`cannot pick ${count} of ${items.length}`);
  const pool = [...items];
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/**
 * One recipient's own set on a `per_recipient` test: `counts` questions picked at random from
 * each domain's pool (`pools`: question ids by domain id), then shuffled together, so the
 * domains are mixed as on a `per_test` test.
 */
export function drawForRecipient(pools: ReadonlyMap<number, readonly number[]>, counts: ReadonlyMap<number, number>): number[] {
  const drawn: number[] = [];
  for (const [domainId, count] of counts) drawn.push(...sample(pools.get(domainId) ?? [], count));
  return shuffle(drawn);
}
