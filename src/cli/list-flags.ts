// The flags every list command declares; parsed and checked in list-options.ts when the command runs.
import type { OptionDef } from './command.js';

export const LIST_OPTIONS: OptionDef[] = [
  { flags: '--page <n>', description: 'page to fetch (>= 1)' },
  { flags: '--per-page <n>', description: 'records per page (1..100)' },
  { flags: '--all', description: 'follow every page, streaming the records' },
  { flags: '--limit <n>', description: 'stop after N records (follows pages as needed)' },
  { flags: '--filter <key=value>', description: 'extra query parameter (repeatable)', repeatable: true },
];
