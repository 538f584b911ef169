// The zsh completion script (compsys), generated from the command tree: one function per command path.
import { allNodes, type ArgSpec, type CommandNode, type CommandTree, type OptionSpec } from './tree.js';

const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const fn = (n: CommandNode) => ['_clinic', ...n.path].join('_').replace(/-/g, '_');
/** Text inside an _arguments `[...]` description. */
const bracket = (text: string) => text.replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]');
/** A message of an _arguments spec: no colons. */
const message = (text: string) => text.replace(/:/g, ' ');

function action(spec: Pick<OptionSpec, 'choices' | 'completes' | 'commaList'>, what: string): string {
  if (spec.choices && spec.commaList) return `_values -s , ${message(what)} ${spec.choices.join(' ')}`;
  if (spec.choices) return `(${spec.choices.join(' ')})`;
  if (spec.completes === 'file') return '_files';
  if (spec.completes === 'profile') return '_clinic_profiles';
  return ' ';
}

function optionSpecs(o: OptionSpec): string[] {
  const forms = [o.short, o.long].filter((f): f is string => f !== undefined);
  const exclusive = o.repeatable ? '*' : forms.length > 1 ? `(${forms.join(' ')})` : '';
  return forms.map((form) => {
    const takes = o.value ? (form.startsWith('--') ? '=' : '+') : '';
    const value = o.value ? `:${message(o.value)}:${action(o, o.value)}` : '';
    return q(`${exclusive}${form}${takes}[${bracket(o.description)}]${value}`);
  });
}

function argSpec(a: ArgSpec): string {
  const lead = a.variadic ? '*' : a.optional ? ':' : '';
  return q(`${lead}:${message(a.name)}:${action({ ...a, commaList: false }, a.name)}`);
}

function nodeFunction(n: CommandNode): string {
  const specs = [...n.options.flatMap(optionSpecs)];
  const name = fn(n);
  if (n.children.length === 0) {
    return [
      `${name}() {`,
      '  _arguments -S \\',
      ...specs.map((s) => `    ${s} \\`),
      ...n.args.map((a) => `    ${argSpec(a)} \\`),
      '    "${_clinic_common[@]}"',
      '}',
    ].join('\n');
  }
  const label = ['clinic', ...n.path].join(' ');
  const described = n.children.map((c) => `    ${q(`${c.name.replace(/:/g, '\\:')}:${c.summary}`)}`);
  const context = ['clinic', ...n.path].join('-');
  return [
    `${name}() {`,
    '  local curcontext=$curcontext state state_descr line ret=1',
    '  local -A opt_args',
    '  _arguments -C -S \\',
    ...specs.map((s) => `    ${s} \\`),
    '    "${_clinic_common[@]}" \\',
    `    ${q(`: :${name}_commands`)} \\`,
    "    '*:: :->args' && ret=0",
    '  if [[ $state == args ]]; then',
    `    curcontext=\${curcontext%:*:*}:${context}-$words[1]:`,
    '    case $words[1] in',
    ...n.children.map((c) => `      (${c.name}) ${fn(c)} && ret=0 ;;`),
    '    esac',
    '  fi',
    '  return ret',
    '}',
    '',
    `${name}_commands() {`,
    '  local -a commands=(',
    ...described,
    '  )',
    `  _describe -t commands ${q(`${label} command`)} commands`,
    '}',
  ].join('\n');
}

export function zshScript(tree: CommandTree): string {
  const common = [...tree.globals, tree.help].flatMap(optionSpecs);
  return `#compdef clinic
# zsh completion for clinic. Generated from the command declarations by \`npm run completions\`: do not edit.
# Use: save it as _clinic in a directory of $fpath before compinit runs, or \`source <(clinic completion zsh)\` after it.

# The options every command takes.
typeset -ga _clinic_common=(
${common.map((s) => `  ${s}`).join('\n')}
)

# Profile names from the config file, through the CLI itself (CLINIC_CONFIG_DIR is honoured); silent on failure.
# CSV lines end in CRLF.
_clinic_profiles() {
  local -a profiles
  (( $+commands[clinic] )) || return 1
  profiles=(\${(f)"$(unset CLINIC_PROFILE; clinic config profiles -o csv --fields name --csv-raw --no-input --no-color </dev/null 2>/dev/null)"})
  profiles=(\${\${profiles[2,-1]}%$'\\r'})
  _wanted profiles expl profile compadd -a profiles
}

${allNodes(tree).map(nodeFunction).join('\n\n')}

if [[ $funcstack[1] == _clinic ]]; then
  _clinic "$@"
else
  compdef _clinic clinic
fi
`;
}
