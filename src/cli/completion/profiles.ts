// Where the completion scripts get profile names: the CLI itself lists them (CLINIC_CONFIG_DIR is honoured, no
// command code beyond `config profiles` runs), one JSON object a line, and each script keeps only the lines that hold a
// name the CLI would accept. A name is data from a file: the scripts never let the shell expand it, and ndjson keeps
// one name to one line whatever it holds (CSV would split a quoted name with a newline over several lines).

/** The command line the scripts run; CLINIC_PROFILE is unset around it, stdin is /dev/null, stderr is dropped. */
export const PROFILES_COMMAND = 'clinic config profiles -o ndjson --fields name --no-input --no-color';

/**
 * The characters a profile name may begin with (checkProfileName in src/core/config/config-file.ts), spelled out: in
 * some locales a range such as A-Z matches other letters too.
 */
const FIRST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_';

/**
 * A line of PROFILES_COMMAND's output that holds a valid profile name, the name in group 1: letters, digits, '.', '_'
 * or '-', first a letter, digit or '_' (`__proto__` is a name like any other), up to 64. None of these is escaped in JSON or special in any shell's quoting, and
 * the pattern reads the same as a POSIX ERE (bash, zsh) and a PCRE (fish). It holds no quote or backslash.
 */
export const PROFILE_LINE = `^[{]"name":"([${FIRST}][${FIRST}.-]{0,63})"[}]$`;
