// How a table's columns share the terminal's width: identifying and state columns are never cut; the others give way
// by priority, the lowest first: it shrinks to its minimum, then is dropped, before a higher one is touched. A column
// whose cells wrap loses nothing by narrowing, so it narrows (to its minimum) before any column is dropped.

export interface ColumnNeeds {
  /** Cells of the widest value (or of the header). */
  natural: number;
  /** Shown whole, never shrunk nor dropped (ids, statuses, emails). */
  keep: boolean;
  /** Higher stays longer. */
  priority: number;
  /** The narrowest it shrinks to before it is dropped instead. */
  min: number;
  /** Its cells wrap onto more lines instead of being cut: narrowing it first costs nothing. */
  wrap?: boolean;
}

/** As a column's minimum: shown whole or not at all (a cut phone number or mark says nothing). */
export const WHOLE = Number.POSITIVE_INFINITY;

/** Cells the frame takes: a border and a space either side of each column. */
export const frameWidth = (columns: number) => 3 * columns + 1;

/** Each column's width, or undefined where it is dropped. */
export function fitColumns(columns: readonly ColumnNeeds[], width: number): (number | undefined)[] {
  const floor = (i: number) => {
    const c = columns[i] as ColumnNeeds;
    return c.keep ? c.natural : Math.min(c.natural, Math.max(1, c.min));
  };
  const widths = new Map(columns.map((c, i) => [i, c.natural]));
  const sum = () => [...widths.values()].reduce((total, w) => total + w, 0) + frameWidth(widths.size);
  const others = columns.map((_, i) => i).filter((i) => !(columns[i] as ColumnNeeds).keep);
  const levels = [...new Set(others.map((i) => (columns[i] as ColumnNeeds).priority))].sort((a, b) => a - b);
  const dropped: number[] = [];

  shrink(
    widths,
    others.filter((i) => (columns[i] as ColumnNeeds).wrap === true),
    floor,
    sum() - width,
  );
  for (const priority of levels) {
    if (sum() <= width) break;
    const level = others.filter((i) => (columns[i] as ColumnNeeds).priority === priority);
    shrink(widths, level, floor, sum() - width);
    // Still too wide: the level goes, its rightmost first; one column always stays.
    for (const i of [...level].reverse()) {
      if (sum() <= width || widths.size === 1) break;
      widths.delete(i);
      dropped.push(i);
    }
  }
  // A lone column still wider than the terminal is cut below its minimum rather than overflow.
  shrink(
    widths,
    others.filter((i) => widths.has(i)),
    () => 1,
    sum() - width,
  );

  // Dropping a wide column may have made room for one dropped before it (at its minimum); then room left widens
  // the columns cut, the highest priority first.
  for (const i of dropped.reverse()) if (sum() + floor(i) + 3 <= width) widths.set(i, floor(i));
  const byPriority = others
    .filter((i) => widths.has(i))
    .sort((a, b) => (columns[b] as ColumnNeeds).priority - (columns[a] as ColumnNeeds).priority);
  for (const i of byPriority) {
    const room = width - sum();
    if (room <= 0) break;
    widths.set(i, Math.min((columns[i] as ColumnNeeds).natural, (widths.get(i) ?? 0) + room));
  }
  return columns.map((_, i) => widths.get(i));
}

/** Takes up to `excess` cells from the columns, the widest first (equals level down together), down to `floor`. */
function shrink(
  widths: Map<number, number>,
  candidates: number[],
  floor: (i: number) => number,
  excess: number,
) {
  const widthOf = (i: number) => widths.get(i) ?? 0;
  let left = excess;
  while (left > 0) {
    const room = candidates.filter((i) => widthOf(i) > floor(i));
    if (room.length === 0) return;
    const widest = room.reduce((a, b) => (widthOf(b) >= widthOf(a) ? b : a));
    const next = Math.max(0, ...room.filter((i) => i !== widest).map(widthOf));
    const w = widthOf(widest);
    const cut = Math.min(left, w - floor(widest), Math.max(1, w - next));
    widths.set(widest, w - cut);
    left -= cut;
  }
}
