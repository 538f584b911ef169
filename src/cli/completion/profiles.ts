// Where the completion scripts get the values they read at completion time, from the config file and never over the
// network: profile names and the tenant slugs a profile remembers. The CLI itself lists them (CLINIC_CONFIG_DIR is
// honoured, no command code beyond the listing runs), one JSON object a line, and each script keeps only the lines
// that hold a value the CLI would accept. A value is data from a file: the scripts never let the shell expand it, and
// ndjson keeps one value to one line whatever it holds (CSV would split a quoted value with a newline over lines).

/** The command line the scripts run; CLINIC_PROFILE is unset around it, stdin is /dev/null, stderr is dropped. */
export const PROFILES_COMMAND = 'clinic config profiles -o ndjson --fields name --no-input --no-color';

/** The same for the tenant slugs the selected profile remembers (`tenants list --offline` sends no request). */
export const TENANTS_COMMAND = 'clinic tenants list --offline -o ndjson --fields slug --no-input --no-color';

/**
 * The characters a profile name or a slug may begin with (checkProfileName in src/core/config/config-file.ts, SLUG in
 * src/cli/account-tenants.ts), spelled out: in some locales a range such as A-Z matches other letters too.
 */
const FIRST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_';
const FIRST_OF_SLUG = FIRST.replace('_', '');

/**
 * A line of PROFILES_COMMAND's output that holds a valid profile name, the name in group 1: letters, digits, '.', '_'
 * or '-', first a letter, digit or '_' (`__proto__` is a name like any other), up to 64. None of these is escaped in JSON or special in any shell's quoting, and
 * the pattern reads the same as a POSIX ERE (bash, zsh) and a PCRE (fish). It holds no quote or backslash.
 */
export const PROFILE_LINE = `^[{]"name":"([${FIRST}][${FIRST}.-]{0,63})"[}]$`;

/** A line of TENANTS_COMMAND's output that holds a slug the CLI takes, the slug in group 1 (as PROFILE_LINE). */
export const TENANT_LINE = `^[{]"slug":"([${FIRST_OF_SLUG}][${FIRST}.-]{0,99})"[}]$`;

/**
 * A profile name the CLI takes, alone (as PROFILE_LINE's group): what `--profile NAME` on the line being completed
 * must be for the tenant slugs offered to be that profile's. A POSIX ERE and a PCRE alike.
 */
export const PROFILE_NAME = `^[${FIRST}][${FIRST}.-]{0,63}$`;
