// The highest id of a list of records, 0 for none: a loop, since spreading 100,000 ids into Math.max overflows the
// call stack.
export function highestId(records: readonly { id: number }[]): number {
  let highest = 0;
  for (const record of records) if (record.id > highest) highest = record.id;
  return highest;
}
