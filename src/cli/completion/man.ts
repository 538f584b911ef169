// The man page, clinic(1), generated in roff from the command tree, the config keys and the exit codes.
import { CONFIG_KEYS } from '../../core/config/keys.js';
import { ExitCode } from '../../core/exit-codes.js';
import { allNodes, type ArgSpec, type CommandNode, type CommandTree, type OptionSpec } from './tree.js';

/** Roff text: backslashes, hyphens (so flags copy as typed) and a leading dot or quote made harmless. */
const esc = (text: string) =>
  text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
/** Declared text keeps its line breaks for the terminal's help; the man page fills paragraphs itself. */
const prose = (text: string) => esc(text.replace(/\s*\n\s*/g, ' ')).replace(/,(?=\S)/g, ',\\:'); // lists such as 5xx=0.05,429=0.05 may break
const bold = (text: string) => `\\fB${esc(text)}\\fR`;
const italic = (text: string) => `\\fI${esc(text)}\\fR`;

function optionItem(o: OptionSpec): string[] {
  const forms = [o.short, o.long].filter((f): f is string => f !== undefined).map(bold);
  const value = o.value ? ` ${italic(o.value)}` : '';
  const choices =
    o.choices && !o.description.includes(o.choices.join(', ')) ? ` (${o.choices.join(', ')})` : '';
  return ['.TP', `${forms.join(', ')}${value}`, prose(`${o.description}${choices}`)];
}

const argUsage = (a: ArgSpec) => {
  const name = `${a.name}${a.variadic ? '...' : ''}`;
  return a.optional ? `[${name}]` : `<${name}>`;
};

function usage(n: CommandNode): string {
  const words = ['clinic', ...n.path];
  if (n.children.length > 0) words.push('<command>');
  else {
    if (n.options.length > 0) words.push('[options]');
    words.push(...n.args.map(argUsage));
  }
  return words.join(' ');
}

function commandSection(n: CommandNode): string[] {
  const lines = [`.SS "${esc(usage(n))}"`];
  lines.push(prose(n.summary));
  if (n.description && n.description !== n.summary)
    for (const paragraph of n.description.split(/\n\s*\n/)) lines.push('.PP', prose(paragraph.trim()));
  if (n.children.length > 0)
    lines.push('.PP', `Commands: ${n.children.map((c) => bold(c.name)).join(', ')}.`);
  if (n.args.length > 0) {
    lines.push('.PP', 'Arguments:', '.RS');
    for (const a of n.args) lines.push('.TP', italic(a.name), prose(a.description));
    lines.push('.RE');
  }
  if (n.options.length > 0) {
    lines.push('.PP', 'Options:', '.RS');
    for (const o of n.options) lines.push(...optionItem(o));
    lines.push('.RE');
  }
  if (n.examples.length > 0) {
    lines.push('.PP', 'Examples:', '.RS', '.nf');
    lines.push(...n.examples.map((e) => `$ ${esc(e)}`));
    lines.push('.fi', '.RE');
  }
  return lines;
}

/**
 * Variables besides the config keys' (CONFIG_KEYS, each with its key): the first two before those, the others after.
 * A config key's variable is listed there only, once.
 */
const ENVIRONMENT: [string, string][] = [
  [
    'CLINIC_CONFIG_DIR',
    'directory of config.json, credentials.json and rate-limit/ (default $XDG_CONFIG_HOME/clinic, ~/.config/clinic)',
  ],
  ['CLINIC_PROFILE', 'profile to use when --profile is not given (else current_profile, else default)'],
  ['CLINIC_TOKEN', 'an access token used as is, overriding anything stored; never refreshed, never stored'],
  ['CLINIC_DEBUG', 'set to 1: trace each HTTP exchange to stderr, secrets redacted (as --debug)'],
  [
    'CLINIC_REQUEST_TIMEOUT',
    'seconds allowed for one whole HTTP exchange (default 60; as --request-timeout)',
  ],
  [
    'CLINIC_NO_COMPILE_CACHE',
    'set to 1: do not keep or use the compile cache in $XDG_CACHE_HOME/clinic (start-up is slower)',
  ],
  [
    'CLINIC_FORWARD_SECRET',
    'the secret chat tail --forward-to signs each delivery with (preferred to --forward-secret, which a command ' +
      'line shows in ps)',
  ],
  ['XDG_CONFIG_HOME', 'where the config goes when CLINIC_CONFIG_DIR is not set: $XDG_CONFIG_HOME/clinic'],
  ['XDG_CACHE_HOME', 'where the compile cache goes: $XDG_CACHE_HOME/clinic (default ~/.cache/clinic)'],
  [
    'XDG_RUNTIME_DIR',
    "where the locks around a keychain sign-in's refresh go: $XDG_RUNTIME_DIR/clinic (else $XDG_CACHE_HOME/clinic/locks)",
  ],
  [
    'TZ',
    "the time zone of the dates in tables and record views (--utc shows UTC); JSON, NDJSON and CSV keep the server's strings",
  ],
  [
    'COLUMNS',
    'the width a table is fitted to when stdout is a pipe or a file (20 to 1000; else the terminal on stderr, else 120)',
  ],
  ['NO_COLOR', 'no colour in the output'],
  ['TERM', 'dumb: no colour and no spinners'],
  ['BROWSER', 'the browser clinic login opens'],
  [
    'DISPLAY',
    'with WAYLAND_DISPLAY: on Linux, when neither is set (and BROWSER is not), clinic login opens no browser and asks ' +
      'for the address the browser ended on, as with --no-browser',
  ],
  ['WAYLAND_DISPLAY', 'see DISPLAY'],
  ['WSL_DISTRO_NAME', 'set under WSL: clinic login opens the Windows browser, whatever DISPLAY says'],
];

/** What clinic reads and writes besides its output. */
const FILES: [string, string][] = [
  [
    '$CLINIC_CONFIG_DIR/config.json',
    "named profiles and current_profile (directory mode 0700, file mode 0600; another user's directory or file is " +
      'refused, never used or changed)',
  ],
  [
    '$CLINIC_CONFIG_DIR/credentials.json',
    'tokens, only with --insecure-storage, CLINIC_CREDENTIAL_STORE=file or a profile whose credential_store is file (mode 0600)',
  ],
  [
    '$CLINIC_CONFIG_DIR/rate-limit/',
    'the rate-limit budget of each profile and API server (PROFILE/ORIGIN.json, with a .lock beside it while it is ' +
      'updated), shared by every clinic process of that profile and server from its second request on, as the API ' +
      'counts requests per user; safe to delete',
  ],
  [
    '$XDG_CACHE_HOME/clinic/',
    "V8's compile cache of the CLI (default ~/.cache/clinic): Node's own in node/ on Node 22.1 and later; on Node " +
      '20 one file per command, Node version and build (the 24 newest kept), rewritten when stale; only a folder ' +
      "and files of the user's own that no one else may write to are used (V8 runs what a cache holds); off with " +
      'CLINIC_NO_COMPILE_CACHE=1 or --debug; safe to delete',
  ],
  [
    '$XDG_RUNTIME_DIR/clinic/ (else $XDG_CACHE_HOME/clinic/locks/)',
    "the locks around each keychain sign-in's refresh, login and logout (keychain-PROFILE.refresh.lock): one " +
      'per profile name, as the keychain entry is, whatever the config folder; a file sign-in has its own in ' +
      '$CLINIC_CONFIG_DIR/locks/',
  ],
  [
    'FILE.journal',
    'the journal of a bulk run from FILE (beside it, or where --journal says): what each line did, so that ' +
      "--resume goes on after a crash or Ctrl-C without creating anything twice; one that is another user's, or " +
      'that others may write to, is not trusted; --restart replaces only a journal',
  ],
  [
    'completions/clinic.bash, completions/_clinic, completions/clinic.fish',
    'shell completion scripts shipped with the package; clinic completion bash|zsh|fish prints them',
  ],
];

const EXIT_STATUS: [number, string][] = [
  [ExitCode.ok, 'success'],
  [ExitCode.failure, 'any failure not below (network error, 5xx after retries, unexpected response)'],
  [
    ExitCode.usage,
    'usage: bad arguments or input, refused before any request is sent; also a confirmation declined at the prompt ' +
      '(cancelled: nothing was sent)',
  ],
  [ExitCode.auth, 'not logged in, or token rejected (401) and refresh failed'],
  [ExitCode.forbidden, 'forbidden (403: missing scope or role)'],
  [ExitCode.notFound, 'not found (404)'],
  [ExitCode.conflict, "conflict: 409, CUSTOMER_ERASED, or an action the record's state does not allow"],
  [ExitCode.validation, 'validation failed at the server (422)'],
  [ExitCode.setupRequired, 'setup required (428 SETUP_REQUIRED)'],
  [ExitCode.rateLimited, 'rate limited (429) or unavailable (503) after retries'],
  [ExitCode.interrupted, 'interrupted (Ctrl-C); partial output is flushed and valid'],
];

export function manPage(tree: CommandTree, version: string): string {
  const { program } = tree;
  const nodes = allNodes(tree).slice(1);
  const keys = new Set(CONFIG_KEYS.map((k) => k.env));
  const others = ENVIRONMENT.filter(([name]) => !keys.has(name));
  const environment: [string, string][] = [
    ...others.slice(0, 2),
    ...CONFIG_KEYS.map((k): [string, string] => [k.env, `${k.description} (config key ${k.key})`]),
    ...others.slice(2),
  ];
  const lines = [
    `.\\" clinic(1). Generated from the command declarations by \`npm run completions\`: do not edit.`,
    `.TH CLINIC 1 "" "clinic ${esc(version)}" "User Commands"`,
    // No hyphenation (flags split across lines would not copy as typed), ragged right (long URLs and JSON).
    '.nh',
    '.ad l',
    '.SH NAME',
    `clinic \\- ${prose(program.summary.replace(/^./, (c) => c.toLowerCase()))}`,
    '.SH SYNOPSIS',
    '.B clinic',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR] [\\fIarguments\\fR] [\\fIoptions\\fR]',
    '.SH DESCRIPTION',
    `${prose(program.summary)}.`,
    'Data goes to standard output; progress, warnings and errors go to standard error.',
    'Global options may be given before or after the command.',
    'Every command prints its help with \\fB\\-\\-help\\fR.',
    '.SH GLOBAL OPTIONS',
    ...[...program.options, ...tree.globals, tree.help].flatMap(optionItem),
    '.SH COMMANDS',
    ...nodes.flatMap(commandSection),
    '.SH ENVIRONMENT',
    ...environment.flatMap(([name, text]) => ['.TP', bold(name), prose(text)]),
    '.SH EXIT STATUS',
    ...EXIT_STATUS.flatMap(([code, text]) => ['.TP', bold(String(code)), prose(text)]),
    '.SH FILES',
    ...FILES.flatMap(([name, text]) => ['.TP', bold(name), prose(text)]),
    '.SH EXAMPLES',
    '.nf',
    ...program.examples.map((e) => `$ ${esc(e)}`),
    '.fi',
  ];
  return `${lines.join('\n')}\n`;
}
