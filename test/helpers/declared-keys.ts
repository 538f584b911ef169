// The names a resource of the API document declares at one level (src/core/api/declared-fields.ts), so a test of the
// sandbox holds it to the same transcription of the document that the CLI's CSV columns come from.
import { declaredFields, type ResourceName } from '../../src/core/api/declared-fields.js';

/** `declaredKeys('DataErasureRequest')`: its own fields; with `within` ('customer'), a nested object's. */
export function declaredKeys(resource: ResourceName, within?: string): string[] {
  const prefix = within === undefined ? '' : `${within}.`;
  const names = declaredFields(resource)
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length).split('.')[0]!);
  if (names.length === 0) throw new Error(`${resource} declares no object ${within}`);
  return [...new Set(names)];
}
