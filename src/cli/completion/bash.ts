// The bash completion script, generated from the command tree. Stand-alone: it needs no bash-completion helpers.
// No value is ever given to the shell to expand (compgen -W would expand each word: a profile named `$(cmd)` would
// run cmd): candidates are matched in a loop and added to COMPREPLY as they are.
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
const id = (n: CommandNode) => q(n.path.join(' '));
const names = (o: OptionSpec) => [o.short, o.long].filter((n): n is string => n !== undefined);
/** A bash array of words: `('a' 'b')`. */
const array = (words: readonly string[]) => `(${words.map(q).join(' ')})`;

/** Shell lines that set __clinic_kind (and __clinic_values) for a value: choice, list, file, profile, command or none. */
function kind(spec: { choices?: readonly string[]; completes?: Completion; commaList?: boolean }): string {
  if (spec.choices)
    return `__clinic_kind=${spec.commaList ? 'list' : 'choice'} __clinic_values=${array(spec.choices)}`;
  if (spec.completes) return `__clinic_kind=${spec.completes}`;
  return '__clinic_kind=none';
}

/**
 * The value of each option: one case an option, labelled `path|flag` for every command that has it (the list flags,
 * the bulk ones are shared), then the global ones under any path.
 */
function optionCases(tree: CommandTree): string[] {
  const shared = new Map<string, { value: string; labels: string[] }>();
  for (const n of allNodes(tree))
    for (const o of n.options.filter((o) => o.value)) {
      const same = shared.get(`${names(o).join(' ')} ${kind(o)}`) ?? { value: kind(o), labels: [] };
      same.labels.push(...names(o).map((name) => q(`${n.path.join(' ')}|${name}`)));
      shared.set(`${names(o).join(' ')} ${kind(o)}`, same);
    }
  const lines = [...shared.values()].map(({ value, labels }) => `    ${labels.join(' | ')}) ${value} ;;`);
  for (const o of tree.globals.filter((o) => o.value))
    lines.push(`    *'|'${names(o).join(` | *'|'`)}) ${kind(o)} ;;`);
  return lines;
}

function argCases(n: CommandNode): string | undefined {
  const completing = n.args
    .map((a, i): [ArgSpec, number] => [a, i])
    .filter(([a]) => a.choices ?? a.completes);
  if (completing.length === 0) return undefined;
  const cases = completing.map(([a, i]) => `      ${a.variadic ? `${i} | [${i + 1}-9]*` : i}) ${kind(a)} ;;`);
  return [`    ${id(n)})`, '      case $2 in', ...cases, '      esac', '      ;;'].join('\n');
}

export function bashScript(tree: CommandTree): string {
  const nodes = allNodes(tree);
  const subcommands = nodes
    .filter((n) => n.children.length > 0)
    .map((n) => `    ${id(n)}) __clinic_words=${array(n.children.map((c) => c.name))} ;;`);
  const ownOptions = nodes
    .filter((n) => n.options.length > 0)
    .map((n) => `    ${id(n)}) __clinic_words=${array(n.options.flatMap(names))} ;;`);
  const common = [...tree.globals, tree.help].flatMap(names);
  const args = nodes.map(argCases).filter((c): c is string => c !== undefined);
  return `# bash completion for clinic. Generated from the command declarations by \`npm run completions\`: do not edit.
# Use: source it from ~/.bashrc (\`source <(clinic completion bash)\`), or save it as
# ~/.local/share/bash-completion/completions/clinic.

# The verbs (or nouns) under a command path: sets the array __clinic_words; fails for a command that runs.
__clinic_subcommands() {
  case $1 in
${subcommands.join('\n')}
    *) __clinic_words=() && return 1 ;;
  esac
}

# The options of a command path, besides the global ones: sets the array __clinic_words.
__clinic_options() {
  case $1 in
${ownOptions.join('\n')}
    *) __clinic_words=() ;;
  esac
  __clinic_words+=${array(common)}
}

# What the value of option $2 under command path $1 is: sets __clinic_kind (flag if it takes none).
__clinic_option() {
  __clinic_values=()
  case "$1|$2" in
${optionCases(tree).join('\n')}
    *) __clinic_kind=flag ;;
  esac
}

# What the argument at position $2 (from 0) of command path $1 is: sets __clinic_kind.
__clinic_argument() {
  __clinic_kind=none __clinic_values=()
  case $1 in
${args.join('\n')}
  esac
}

# Adds to COMPREPLY each word after $1 and $2 that starts with $1, with $2 before it (\`--opt=\`). The words are data:
# matched as strings and added quoted for the command line (printf %q), never expanded by the shell.
__clinic_add() {
  local cur=$1 before=$2 word quoted
  shift 2
  for word; do
    if [[ $word == "$cur"* ]]; then
      printf -v quoted %q "$word"
      COMPREPLY+=("$before$quoted")
    fi
  done
}

# The profile the line names before the cursor (--profile NAME, --profile=NAME; the last one given): sets
# __clinic_profile, empty when none is named. Fails for a name the CLI would refuse: its run could offer nothing.
__clinic_line_profile() {
  local i word valid=${q(PROFILE_NAME)}
  __clinic_profile=
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ $word == --profile ]]; then
      __clinic_profile=\${COMP_WORDS[i + 1]}
      [[ $__clinic_profile == = ]] && __clinic_profile=\${COMP_WORDS[i + 2]}
    elif [[ $word == --profile=* ]]; then
      __clinic_profile=\${word#--profile=}
    fi
  done
  [[ -z $__clinic_profile || $__clinic_profile =~ $valid ]]
}

# Profile names ($1 = profile) or the remembered tenant slugs (tenant) of the profile the line names, else of the
# selected one, one a line, through the CLI itself (CLINIC_CONFIG_DIR is honoured; no request is sent); silent on
# failure. Only the values the CLI accepts (letters, digits, '.', '_', '-') are kept: any other line is dropped,
# never expanded.
__clinic_listed() {
  command -v clinic >/dev/null 2>&1 || return 0
  local line valid=${q(PROFILE_LINE)}
  if [[ $1 == tenant ]]; then
    valid=${q(TENANT_LINE)}
    __clinic_line_profile || return 0
  fi
  while IFS= read -r line; do
    [[ $line =~ $valid ]] && printf '%s\\n' "\${BASH_REMATCH[1]}"
  done < <(if [[ $1 == tenant ]]; then ${TENANTS_COMMAND} \${__clinic_profile:+"--profile=$__clinic_profile"}; else unset CLINIC_PROFILE; ${PROFILES_COMMAND}; fi </dev/null 2>/dev/null)
}

# Fills COMPREPLY with the values of __clinic_kind that start with $1; $2 goes before each (\`--opt=\`).
__clinic_values_of() {
  local cur=$1 before=$2 line
  local -a listed
  case $__clinic_kind in
    choice) __clinic_add "$cur" "$before" "\${__clinic_values[@]}" ;;
    list)
      # The values not chosen yet: \`created,<TAB>\` offers deleted and read, not created again.
      local -a chosen=() left=()
      if [[ $cur == *,* ]]; then
        before+=\${cur%,*},
        IFS=, read -ra chosen <<<"\${cur%,*}"
      fi
      for line in "\${__clinic_values[@]}"; do
        __clinic_in "$line" "\${chosen[@]}" || left+=("$line")
      done
      __clinic_add "\${cur##*,}" "$before" "\${left[@]}"
      ;;
    file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      if [[ -n $before ]]; then
        for line in "\${!COMPREPLY[@]}"; do COMPREPLY[line]=$before\${COMPREPLY[line]}; done
      fi
      ;;
    profile | tenant)
      mapfile -t listed < <(__clinic_listed "$__clinic_kind")
      __clinic_add "$cur" "$before" "\${listed[@]}"
      ;;
    # clinic help: the commands under the ones already given.
    command) __clinic_subcommands "\${__clinic_args[*]}" && __clinic_add "$cur" "$before" "\${__clinic_words[@]}" ;;
  esac
}

# Whether $1 is one of the words after it.
__clinic_in() {
  local word
  for word in "\${@:2}"; do [[ $word == "$1" ]] && return 0; done
  return 1
}

_clinic() {
  local cur=\${COMP_WORDS[COMP_CWORD]} node='' word opt=''
  local -i i=1 next position=0 options_end=0
  local __clinic_kind
  local -a __clinic_words __clinic_values __clinic_args
  COMPREPLY=()
  # Walk the words before the cursor: the command path, the arguments given, and whether the cursor is on the value
  # of an option (\`--status <TAB>\`, or \`--status=<TAB>\`, which bash splits into \`--status\`, \`=\`, ...).
  while ((i < COMP_CWORD)); do
    word=\${COMP_WORDS[i]}
    if ((options_end)) || [[ $word != -?* ]]; then
      if ((!options_end && position == 0)) && __clinic_subcommands "$node" && __clinic_in "$word" "\${__clinic_words[@]}"; then
        node=\${node:+$node }$word
      else
        position+=1
        __clinic_args+=("$word")
      fi
    elif [[ $word == -- ]]; then
      options_end=1
    elif [[ $word != --*=* ]]; then
      __clinic_option "$node" "$word"
      if [[ $__clinic_kind != flag ]]; then
        next=$((i + 1))
        [[ \${COMP_WORDS[next]} == = ]] && next+=1
        if ((next >= COMP_CWORD)); then
          opt=$word
          break
        fi
        i=$next
      fi
    fi
    i+=1
  done
  [[ $cur == = && -n $opt ]] && cur=''

  if [[ -n $opt ]]; then
    __clinic_option "$node" "$opt"
    __clinic_values_of "$cur" ''
  elif ((!options_end)) && [[ $cur == --*=* ]]; then
    __clinic_option "$node" "\${cur%%=*}"
    __clinic_values_of "\${cur#*=}" "\${cur%%=*}="
  elif ((!options_end)) && [[ $cur == -* ]]; then
    __clinic_options "$node"
    __clinic_add "$cur" '' "\${__clinic_words[@]}"
  elif ((position == 0)) && __clinic_subcommands "$node"; then
    __clinic_add "$cur" '' "\${__clinic_words[@]}"
  else
    __clinic_argument "$node" "$position"
    __clinic_values_of "$cur" ''
  fi
  return 0
}

complete -F _clinic clinic
`;
}
