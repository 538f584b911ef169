// The zsh completion script (compsys), generated from the command tree: one function per command path.
import { PROFILE_LINE, PROFILE_NAME, PROFILES_COMMAND, TENANT_LINE, TENANTS_COMMAND } from './profiles.js';
import { posixQuote } from './quote.js';
import {
  allNodes,
  type ArgSpec,
  type CommandNode,
  type CommandTree,
  type Completion,
  type OptionSpec,
} from './tree.js';

const q = posixQuote;
const fn = (n: CommandNode) => ['_clinic', ...n.path].join('_').replace(/-/g, '_');
/** Text inside an _arguments `[...]` description. */
const bracket = (text: string) => text.replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]');
/** A message of an _arguments spec: no colons. */
const message = (text: string) => text.replace(/:/g, ' ');

function action(
  spec: { choices?: readonly string[]; completes?: Completion; commaList: boolean },
  what: string,
): string {
  if (spec.choices && spec.commaList) return `_values -s , ${message(what)} ${spec.choices.join(' ')}`;
  if (spec.choices) return `(${spec.choices.join(' ')})`;
  if (spec.completes === 'file') return '_files';
  if (spec.completes === 'profile') return '_clinic_profiles';
  if (spec.completes === 'tenant') return '_clinic_tenant_slugs';
  if (spec.completes === 'command') return '_clinic_command_words';
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
  // A command path (clinic help) is read from the words array, which `*::` narrows to the arguments.
  const lead = a.variadic ? (a.completes === 'command' ? '*:' : '*') : a.optional ? ':' : '';
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

# The profile the line names before the cursor (--profile NAME, --profile=NAME; the last one given): sets
# _clinic_profile, empty when none is named. Fails for a name the CLI would refuse: its run could offer nothing.
_clinic_line_profile() {
  setopt localoptions nobashrematch norematchpcre
  local i valid=${q(PROFILE_NAME)}
  # The words of the whole line up to the cursor: _arguments leaves in $words only those after the command's name.
  local -a typed=(\${(z)LBUFFER})
  _clinic_profile=
  for (( i = 2; i <= $#typed; i++ )); do
    if [[ $typed[i] == --profile ]]; then
      _clinic_profile=$typed[i+1]
    elif [[ $typed[i] == --profile=* ]]; then
      _clinic_profile=\${typed[i]#--profile=}
    fi
  done
  [[ -z $_clinic_profile || $_clinic_profile =~ $valid ]]
}

# Profile names ($1 = profile) or the remembered tenant slugs (tenant) of the profile the line names, else of the
# selected one, one a line, through the CLI itself (CLINIC_CONFIG_DIR is honoured; no request is sent); silent on
# failure. Only the values the CLI accepts (letters, digits, '.', '_', '-') are kept: any other line is dropped.
_clinic_listed() {
  setopt localoptions nobashrematch norematchpcre
  local entry expl valid=${q(PROFILE_LINE)} output _clinic_profile
  local -a values match mbegin mend
  (( $+commands[clinic] )) || return 1
  if [[ $1 == tenant ]]; then
    valid=${q(TENANT_LINE)}
    _clinic_line_profile || return 1
    output=$(${TENANTS_COMMAND} \${_clinic_profile:+--profile=$_clinic_profile} </dev/null 2>/dev/null)
  else
    output=$(unset CLINIC_PROFILE; ${PROFILES_COMMAND} </dev/null 2>/dev/null)
  fi
  for entry in \${(f)output}; do
    [[ $entry =~ $valid ]] && values+=($match[1])
  done
  _wanted $1s expl $1 compadd -a values
}

# One function each, as _arguments puts compadd options after an action's first word.
_clinic_profiles() { _clinic_listed profile }
_clinic_tenant_slugs() { _clinic_listed tenant }

# clinic help: the commands under the ones given before the cursor (\`clinic help erasure <TAB>\`), from the
# _commands function of that path; nothing under a command that runs.
_clinic_command_words() {
  local word name=_clinic
  for word in "\${(@)words[1,CURRENT-1]}"; do
    [[ -n $word && $word != *[^a-z0-9-]* ]] || return 1
    name+=_\${word//-/_}
  done
  (( $+functions[\${name}_commands] )) && \${name}_commands
}

${allNodes(tree).map(nodeFunction).join('\n\n')}

if [[ $funcstack[1] == _clinic ]]; then
  _clinic "$@"
else
  compdef _clinic clinic
fi
`;
}
