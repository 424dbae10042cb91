/** "Did you mean …" suggestions: the closest accepted value by edit distance, case-insensitive. */

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

/** The accepted value closest to `value`, when it is close enough to be a likely typo. */
export function closestMatch(value: string, accepted: readonly string[]): string | undefined {
  const wanted = value.toLowerCase();
  let best: { value: string; distance: number } | undefined;
  for (const candidate of accepted) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { value: candidate, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(wanted.length / 3)) ? best.value : undefined;
}

/** ` (did you mean "x"?)` or an empty string. */
export function didYouMean(value: string, accepted: readonly string[]): string {
  const match = closestMatch(value, accepted);
  return match ? ` (did you mean ${JSON.stringify(match)}?)` : '';
}
