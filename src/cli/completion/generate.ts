// Every generated file (the three completion scripts and the man page) from the declarations, by path in the package.
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { manPage } from './man.js';
import { commandTree, type Declarations } from './tree.js';
import { zshScript } from './zsh.js';

export const GENERATED_FILES = [
  'completions/clinic.bash',
  'completions/_clinic',
  'completions/clinic.fish',
  'man/clinic.1',
] as const;

export type GeneratedFile = (typeof GENERATED_FILES)[number];

export function generateFiles(declarations: Declarations, version: string): Record<GeneratedFile, string> {
  const tree = commandTree(declarations);
  return {
    'completions/clinic.bash': bashScript(tree),
    'completions/_clinic': zshScript(tree),
    'completions/clinic.fish': fishScript(tree),
    'man/clinic.1': manPage(tree, version),
  };
}
