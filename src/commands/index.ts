// The top-level commands and nouns, in help order; each noun declares its own verbs and its help category. A
// declaration module is evaluated only when asked for: a command's run builds only the one its first word names.
import type { CommandDef, NounDef } from '../cli/command.js';

type Declared = CommandDef | NounDef;

const TREE: readonly (readonly [string, () => Promise<Declared>])[] = [
  ['login', async () => (await import('./auth/index.js')).login],
  ['logout', async () => (await import('./auth/index.js')).logout],
  ['auth', async () => (await import('./auth/index.js')).default],
  ['account', async () => (await import('./account/index.js')).default],
  ['tenants', async () => (await import('./tenants/index.js')).default],
  ['config', async () => (await import('./config/index.js')).default],
  ['customers', async () => (await import('./customers/index.js')).default],
  ['users', async () => (await import('./users/index.js')).default],
  ['appointments', async () => (await import('./appointments/index.js')).default],
  ['leads', async () => (await import('./leads/index.js')).default],
  ['conversations', async () => (await import('./conversations/index.js')).default],
  ['chat', async () => (await import('./chat/index.js')).default],
  ['channels', async () => (await import('./channels/index.js')).default],
  ['form-templates', async () => (await import('./form-templates/index.js')).default],
  ['announcements', async () => (await import('./announcements/index.js')).default],
  ['ai-reports', async () => (await import('./ai-reports/index.js')).default],
  ['sales', async () => (await import('./sales/index.js')).default],
  ['transaction-types', async () => (await import('./transaction-types/index.js')).default],
  ['erasure', async () => (await import('./erasure/index.js')).default],
  ['api', async () => (await import('./api/index.js')).default],
  ['doctor', async () => (await import('./doctor/index.js')).default],
  ['completion', async () => (await import('./completion/index.js')).default],
  ['man', async () => (await import('./man/index.js')).default],
  ['sandbox', async () => (await import('./sandbox/index.js')).default],
];

/** The top-level names, in help order. */
export const commandNames: readonly string[] = TREE.map(([name]) => name);

/** Every declaration, in help order; or only the one `name` names, when it names one. */
export async function loadCommands(name?: string): Promise<Declared[]> {
  const named = TREE.filter(([entry]) => entry === name);
  return Promise.all((named.length ? named : TREE).map(([, load]) => load()));
}
