// The options every list command declares: paging, --limit and --filter, typed and checked when parsed.
import { option } from './options.js';

export const LIST_OPTIONS = [
  option.int('--page <n>', 'page to fetch (>= 1)', { min: 1 }),
  option.int('--per-page <n>', 'records per page (1..100)', { min: 1, max: 100 }),
  option.flag('--all', 'follow every page from the first, streaming the records (not with --page)'),
  option.int('--limit <n>', 'stop after N records (follows pages as needed)', { min: 1 }),
  option.many('--filter <key=value>', 'extra query parameter'),
] as const;
