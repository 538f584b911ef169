// The top-level commands and nouns, in help order; each noun declares its own verbs and its help category. A
// declaration module is evaluated only when asked for: a command's run builds only the one its first word names.
import type { CommandDef, NounDef } from '../cli/command.js';

type Declared = CommandDef | NounDef;

/** The top-level names, in help order. */
export const commandNames: readonly string[] = [
  'login',
  'logout',
  'auth',
  'account',
  'tenants',
  'config',
  'customers',
  'users',
  'appointments',
  'leads',
  'conversations',
  'chat',
  'channels',
  'form-templates',
  'announcements',
  'ai-reports',
  'sales',
  'transaction-types',
  'erasure',
  'api',
  'doctor',
  'completion',
  'man',
  'sandbox',
];

/**
 * The declaration of one top-level name: a switch of literal imports, where the bundler splits at each one (a table
 * of loaders made a function for each name on every start-up). A name without its case fails the build, which loads
 * them all for the help cache.
 */
async function declaration(name: string): Promise<Declared> {
  switch (name) {
    case 'login':
      return (await import('./auth/index.js')).login;
    case 'logout':
      return (await import('./auth/index.js')).logout;
    case 'auth':
      return (await import('./auth/index.js')).default;
    case 'account':
      return (await import('./account/index.js')).default;
    case 'tenants':
      return (await import('./tenants/index.js')).default;
    case 'config':
      return (await import('./config/index.js')).default;
    case 'customers':
      return (await import('./customers/index.js')).default;
    case 'users':
      return (await import('./users/index.js')).default;
    case 'appointments':
      return (await import('./appointments/index.js')).default;
    case 'leads':
      return (await import('./leads/index.js')).default;
    case 'conversations':
      return (await import('./conversations/index.js')).default;
    case 'chat':
      return (await import('./chat/index.js')).default;
    case 'channels':
      return (await import('./channels/index.js')).default;
    case 'form-templates':
      return (await import('./form-templates/index.js')).default;
    case 'announcements':
      return (await import('./announcements/index.js')).default;
    case 'ai-reports':
      return (await import('./ai-reports/index.js')).default;
    case 'sales':
      return (await import('./sales/index.js')).default;
    case 'transaction-types':
      return (await import('./transaction-types/index.js')).default;
    case 'erasure':
      return (await import('./erasure/index.js')).default;
    case 'api':
      return (await import('./api/index.js')).default;
    case 'doctor':
      return (await import('./doctor/index.js')).default;
    case 'completion':
      return (await import('./completion/index.js')).default;
    case 'man':
      return (await import('./man/index.js')).default;
    case 'sandbox':
      return (await import('./sandbox/index.js')).default;
    default:
      throw new Error(`no command '${name}'`);
  }
}

/** Every declaration, in help order; or only the one `name` names, when it names one. */
export async function loadCommands(name?: string): Promise<Declared[]> {
  const named = name !== undefined && commandNames.includes(name);
  return Promise.all((named ? [name] : commandNames).map(declaration));
}
