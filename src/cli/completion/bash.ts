// The bash completion script, generated from the command tree. Stand-alone: it needs no bash-completion helpers.
import { allNodes, type ArgSpec, type CommandNode, type CommandTree, type OptionSpec } from './tree.js';

const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const id = (n: CommandNode) => q(n.path.join(' '));
const names = (o: OptionSpec) => [o.short, o.long].filter((n): n is string => n !== undefined);

/** Shell lines that set __clinic_kind (and __clinic_values) for a value: choice, list, file, profile or none. */
function kind(spec: Pick<OptionSpec, 'choices' | 'completes'> & { commaList?: boolean }): string {
  if (spec.choices)
    return `__clinic_kind=${spec.commaList ? 'list' : 'choice'} __clinic_values=${q(spec.choices.join(' '))}`;
  if (spec.completes) return `__clinic_kind=${spec.completes}`;
  return '__clinic_kind=none';
}

function optionCases(tree: CommandTree): string[] {
  const lines: string[] = [];
  for (const n of allNodes(tree)) {
    for (const o of n.options.filter((o) => o.value)) {
      const labels = names(o).map((name) => q(`${n.path.join(' ')}|${name}`));
      lines.push(`    ${labels.join(' | ')}) ${kind(o)} ;;`);
    }
  }
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
    .map((n) => `    ${id(n)}) __clinic_words=${q(n.children.map((c) => c.name).join(' '))} ;;`);
  const ownOptions = nodes
    .filter((n) => n.options.length > 0)
    .map((n) => `    ${id(n)}) __clinic_words=${q(n.options.flatMap(names).join(' '))} ;;`);
  const common = [...tree.globals, tree.help].flatMap(names).join(' ');
  const args = nodes.map(argCases).filter((c): c is string => c !== undefined);
  return `# bash completion for clinic. Generated from the command declarations by \`npm run completions\`: do not edit.
# Use: source it from ~/.bashrc (\`source <(clinic completion bash)\`), or save it as
# ~/.local/share/bash-completion/completions/clinic.

# The verbs (or nouns) under a command path: sets __clinic_words; fails for a command that runs.
__clinic_subcommands() {
  case $1 in
${subcommands.join('\n')}
    *) __clinic_words='' && return 1 ;;
  esac
}

# The options of a command path, besides the global ones: sets __clinic_words.
__clinic_options() {
  case $1 in
${ownOptions.join('\n')}
    *) __clinic_words='' ;;
  esac
  __clinic_words+=${q(` ${common}`)}
}

# What the value of option $2 under command path $1 is: sets __clinic_kind (flag if it takes none).
__clinic_option() {
  __clinic_values=''
  case "$1|$2" in
${optionCases(tree).join('\n')}
    *) __clinic_kind=flag ;;
  esac
}

# What the argument at position $2 (from 0) of command path $1 is: sets __clinic_kind.
__clinic_argument() {
  __clinic_kind=none __clinic_values=''
  case $1 in
${args.join('\n')}
  esac
}

# Profile names from the config file, through the CLI itself (CLINIC_CONFIG_DIR is honoured); silent on failure.
# CSV lines end in CRLF.
__clinic_profiles() {
  command -v clinic >/dev/null 2>&1 || return 0
  local line header=1
  while IFS= read -r line; do
    line=\${line%$'\\r'}
    if ((header)); then
      header=0
    elif [[ -n $line ]]; then
      printf '%s\\n' "$line"
    fi
  done < <(unset CLINIC_PROFILE; clinic config profiles -o csv --fields name --csv-raw --no-input --no-color </dev/null 2>/dev/null)
}

# Fills COMPREPLY with the values of __clinic_kind that start with $1; $2 goes before each (\`--opt=\`).
__clinic_values_of() {
  local cur=$1 before=$2 line
  case $__clinic_kind in
    choice) mapfile -t COMPREPLY < <(compgen -P "$before" -W "$__clinic_values" -- "$cur") ;;
    list)
      [[ $cur == *,* ]] && before+=\${cur%,*},
      mapfile -t COMPREPLY < <(compgen -P "$before" -W "$__clinic_values" -- "\${cur##*,}")
      ;;
    file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      if [[ -n $before ]]; then
        for line in "\${!COMPREPLY[@]}"; do COMPREPLY[line]=$before\${COMPREPLY[line]}; done
      fi
      ;;
    profile) mapfile -t COMPREPLY < <(compgen -P "$before" -W "$(__clinic_profiles)" -- "$cur") ;;
  esac
}

_clinic() {
  local cur=\${COMP_WORDS[COMP_CWORD]} node='' word opt=''
  local -i i=1 next position=0 options_end=0
  local __clinic_words __clinic_kind __clinic_values
  COMPREPLY=()
  # Walk the words before the cursor: the command path, the arguments given, and whether the cursor is on the value
  # of an option (\`--status <TAB>\`, or \`--status=<TAB>\`, which bash splits into \`--status\`, \`=\`, ...).
  while ((i < COMP_CWORD)); do
    word=\${COMP_WORDS[i]}
    if ((options_end)) || [[ $word != -?* ]]; then
      if ((!options_end && position == 0)) && __clinic_subcommands "$node" && [[ " $__clinic_words " == *" $word "* ]]; then
        node=\${node:+$node }$word
      else
        position+=1
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
    mapfile -t COMPREPLY < <(compgen -W "$__clinic_words" -- "$cur")
  elif ((position == 0)) && __clinic_subcommands "$node"; then
    mapfile -t COMPREPLY < <(compgen -W "$__clinic_words" -- "$cur")
  else
    __clinic_argument "$node" "$position"
    __clinic_values_of "$cur" ''
  fi
  return 0
}

complete -F _clinic clinic
`;
}
