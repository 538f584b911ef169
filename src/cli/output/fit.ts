// How a table's columns share the terminal's width. Identifying and state values (ids, statuses, emails) are never
// cut nor dropped. The others give way by priority, the lowest first: it shrinks to its minimum, then is dropped,
// before a higher one is touched. A column whose cells wrap loses nothing by narrowing, so it narrows (to its minimum)
// before any column is dropped: a kept one that wraps (emails) to the width that holds three in four of its values whole, one
// long email wrapping rather than pushing the rest of the table out. When the kept columns alone are too wide, they
// narrow too, wrapping.

import { largest } from './largest.js';

export interface ColumnNeeds {
  /** Cells of the widest value (or of the header). */
  natural: number;
  /** Never cut nor dropped (ids, statuses, emails): shown whole, or wrapped when its column must narrow. */
  keep: boolean;
  /** Higher stays longer. */
  priority: number;
  /** The narrowest it shrinks to before it is dropped instead; a kept column that wraps, before anything gives way. */
  min: number;
  /** Its cells wrap onto more lines instead of being cut: narrowing it first costs nothing. */
  wrap?: boolean;
}

/** As a column's minimum: shown whole or not at all (a cut phone number or mark says nothing). */
export const WHOLE = Number.POSITIVE_INFINITY;

/** Cells the frame takes: a border and a space either side of each column. */
export const frameWidth = (columns: number) => 3 * columns + 1;

/**
 * Each column's width, or undefined where it is dropped. Nothing is wider than `width` unless the kept columns alone,
 * a cell wide each, are.
 */
export function fitColumns(columns: readonly ColumnNeeds[], width: number): (number | undefined)[] {
  const need = (i: number) => columns[i] as ColumnNeeds;
  const floor = (i: number) =>
    need(i).keep && need(i).wrap !== true
      ? need(i).natural
      : Math.min(need(i).natural, Math.max(1, need(i).min));
  const widths = new Map(columns.map((c, i) => [i, c.natural]));
  const sum = () => [...widths.values()].reduce((total, w) => total + w, 0) + frameWidth(widths.size);
  const all = columns.map((_, i) => i);
  const kept = all.filter((i) => need(i).keep);
  const others = all.filter((i) => !need(i).keep);
  const levels = [...new Set(others.map((i) => need(i).priority))].sort((a, b) => a - b);
  const dropped: number[] = [];

  // Wrapping columns narrow first, losing nothing: the others' (a note) before kept ones' (an email).
  shrink(
    widths,
    others.filter((i) => need(i).wrap === true),
    floor,
    sum() - width,
  );
  shrink(
    widths,
    kept.filter((i) => need(i).wrap === true),
    floor,
    sum() - width,
  );
  for (const priority of levels) {
    if (sum() <= width) break;
    const level = others.filter((i) => need(i).priority === priority);
    shrink(widths, level, floor, sum() - width);
    // Still too wide: the level goes, its rightmost first; one column always stays.
    for (const i of [...level].reverse()) {
      if (sum() <= width || widths.size === 1) break;
      widths.delete(i);
      dropped.push(i);
    }
  }
  // Still wider than the terminal: every column left narrows below its minimum (kept and wrapping ones wrap, the
  // rest are cut) rather than overflow.
  shrink(
    widths,
    all.filter((i) => widths.has(i)),
    () => 1,
    sum() - width,
  );

  // Dropping a wide column may have made room for one dropped before it (at its minimum); then room left widens
  // the columns narrowed, kept ones first, then the highest priority first.
  for (const i of dropped.reverse()) if (sum() + floor(i) + 3 <= width) widths.set(i, floor(i));
  const byPriority = others.filter((i) => widths.has(i)).sort((a, b) => need(b).priority - need(a).priority);
  for (const i of [...kept, ...byPriority]) {
    const room = width - sum();
    const short = need(i).natural - (widths.get(i) ?? 0);
    if (room <= 0) break;
    // A kept column takes room only to show its values whole: short of that, they wrap the same.
    if (!need(i).keep || room >= short) widths.set(i, Math.min(need(i).natural, (widths.get(i) ?? 0) + room));
  }
  return columns.map((_, i) => widths.get(i));
}

/**
 * Takes up to `excess` cells from the columns, the widest first, down to `floor`. Equals level down together, the
 * rightmost first, in one pass to the next width below them (a hostile value ten million cells wide costs a pass, not
 * ten million).
 */
function shrink(
  widths: Map<number, number>,
  candidates: number[],
  floor: (i: number) => number,
  excess: number,
) {
  const widthOf = (i: number) => widths.get(i) ?? 0;
  let left = excess;
  while (left > 0) {
    const room = candidates.filter((i) => widths.has(i) && widthOf(i) > floor(i));
    if (room.length === 0) return;
    const w = largest(room.map(widthOf), 0);
    const widest = room.filter((i) => widthOf(i) === w).reverse();
    const next = largest(room.filter((i) => widthOf(i) < w).map(widthOf), 0);
    const step = Math.max(1, Math.min(w - next, Math.floor(left / widest.length)));
    for (const i of widest) {
      const cut = Math.min(left, step, widthOf(i) - floor(i));
      widths.set(i, widthOf(i) - cut);
      left -= cut;
      if (left <= 0) return;
    }
  }
}
