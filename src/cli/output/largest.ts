// The largest of many numbers. `Math.max(...values)` passes each as an argument: a table of 130,000 rows (an honest
// `--all -o table` of a large tenant, or one hostile page of tiny records) overflows the stack that way.

/** The largest of `values`, and at least `floor`. */
export function largest(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let most = floor;
  for (const value of values) if (value > most) most = value;
  return most;
}
