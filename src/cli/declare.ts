// Builders for the declarations most nouns share: the id argument, a noun of verbs, and the standard verbs (one
// record by id, a list) declared in a few lines. Their code still loads only when they run: show-verb.ts,
// resource-verbs.ts and the API paths are imported inside load(), with literal paths so the bundler keeps them.
import type { paths } from '../core/api/resources.js';
import { type ArgDef, type CommandDef, defineCommand, defineNoun, type NounDef } from './command.js';
import { LIST_OPTIONS } from './list-flags.js';
import type { Column } from './output/table.js';

type Paths = typeof paths;
/** The API paths of one record by id (`announcement` → `/v1/announcements/{id}`). */
type RecordPath = { [K in keyof Paths]: Paths[K] extends (id: number) => string ? K : never }[keyof Paths];
/** The API paths of a whole collection (`channels` → `/v1/channels`). */
type CollectionPath = { [K in keyof Paths]: Paths[K] extends string ? K : never }[keyof Paths];

/** What a verb's help says: its summary, the longer description, its examples. */
type Help = Pick<CommandDef, 'summary' | 'description' | 'examples'>;

/** The one argument of a verb that acts on a record: `ID`, described as `<what> id`. */
export const idArg = (what: string): ArgDef[] => [{ name: 'id', description: `${what} id` }];

/**
 * A noun and its verbs. Without examples of its own, its help shows its first verb's first example: a noun of one
 * verb mostly has nothing else to show.
 */
export function noun(def: Omit<NounDef, 'examples'> & { examples?: string[] }): NounDef {
  const first = def.commands[0];
  return defineNoun({ ...def, examples: def.examples ?? (first ? first.examples.slice(0, 1) : []) });
}

/** `<noun> get ID`: GET the record's path, shown as any one record is (`what` names it in errors and help). */
export function getVerb({ what, path, ...help }: Help & { what: string; path: RecordPath }): CommandDef {
  return defineCommand({
    name: 'get',
    ...help,
    args: idArg(what),
    dryRun: 'read-only',
    load: async () => {
      const [{ showById }, api] = await Promise.all([
        import('./show-verb.js'),
        import('../core/api/resources.js'),
      ]);
      return showById(what, api.paths[path]);
    },
  });
}

/** `<noun> list` over a collection: paginated, or one unpaginated list; the list flags either way. */
export function listVerb({
  noun,
  path,
  paged,
  columns,
  ...help
}: Help & { noun: string; path: CollectionPath; paged: boolean; columns: Column[] }): CommandDef {
  return defineCommand({
    name: 'list',
    ...help,
    options: LIST_OPTIONS,
    dryRun: 'read-only',
    load: async () => {
      const [verbs, api] = await Promise.all([
        import('./resource-verbs.js'),
        import('../core/api/resources.js'),
      ]);
      const list = { noun, path: api.paths[path], columns };
      return paged ? verbs.pagedListVerb(list) : verbs.plainListVerb(list);
    },
  });
}
