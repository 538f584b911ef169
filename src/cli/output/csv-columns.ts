// CSV's columns, decided once and kept: the resource's declared fields, then every further field seen in the first
// page, nested objects as dotted columns whichever record shows them (a field null in one record and an object in
// another gives the object's columns). Later records are checked against them: a field they would lose is named once.

/** A field path in a tree: its fields below, whether it holds a value of its own, whether it is a column. */
interface FieldNode {
  below: Map<string, FieldNode>;
  /** Seen as a value that is not an object (a string, a number, an array), or declared as a leaf. */
  value: boolean;
  /** One cell holds everything at and below this path. */
  column: boolean;
  /** A field outside the columns, named with everything below it. */
  reported: boolean;
  /** A value where the columns hold only an object's fields, named. */
  valueReported: boolean;
}

const node = (): FieldNode => ({
  below: new Map(),
  value: false,
  column: false,
  reported: false,
  valueReported: false,
});

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const child = (parent: FieldNode, key: string): FieldNode => {
  let found = parent.below.get(key);
  if (!found) parent.below.set(key, (found = node()));
  return found;
};

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/** Adds a record's fields to the tree: objects with fields branch, anything else is a value (null only a place). */
function addFields(record: Record<string, unknown>, tree: FieldNode): void {
  for (const key of Object.keys(record)) {
    const value = record[key];
    const field = child(tree, key);
    if (isPlainObject(value)) addFields(value, field);
    else if (value !== null && value !== undefined) field.value = true;
  }
}

/** The columns, depth first in the order fields were first met; each marked on its node. */
function columnsOf(tree: FieldNode, prefix: string, out: string[]): string[] {
  for (const [key, field] of tree.below) {
    const path = join(prefix, key);
    if (field.value || field.below.size === 0) {
      field.column = true;
      out.push(path);
    }
    columnsOf(field, path, out);
  }
  return out;
}

/** The columns of a CSV and the check of every later record against them. */
export class CsvColumns {
  readonly columns: string[];
  private readonly tree: FieldNode;

  /** `declared`: the resource's fields, first; `firstPage`: the records whose every field gets a column. */
  constructor(declared: readonly string[], firstPage: readonly unknown[]) {
    this.tree = node();
    for (const path of declared) {
      const parts = path.split('.');
      let at = this.tree;
      for (const part of parts) at = child(at, part);
      at.value = true;
    }
    for (const record of firstPage) {
      if (isPlainObject(record)) addFields(record, this.tree);
      else child(this.tree, 'value').value = true; // a record that is no object is its `value` column
    }
    this.columns = columnsOf(this.tree, '', []);
  }

  /** The fields of `record` that no column holds and that were not named before (each is named once). */
  unheld(record: unknown): string[] {
    const found: string[] = [];
    if (isPlainObject(record)) this.walk(record, this.tree, '', found);
    return found;
  }

  private walk(record: Record<string, unknown>, tree: FieldNode, prefix: string, found: string[]): void {
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const field = tree.below.get(key);
      if (field?.column || field?.reported) continue;
      const value = record[key];
      if (field && isPlainObject(value)) this.walk(value, field, join(prefix, key), found);
      else if (!field) {
        child(tree, key).reported = true;
        found.push(join(prefix, key));
      } else if (value !== null && value !== undefined && !field.valueReported) {
        field.valueReported = true;
        found.push(join(prefix, key));
      }
    }
  }
}
