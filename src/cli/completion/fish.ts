// The fish completion script, generated from the command tree: `complete` lines guarded by the command path.
import { PROFILE_LINE, PROFILE_NAME, PROFILES_COMMAND, TENANT_LINE, TENANTS_COMMAND } from './profiles.js';
import { allNodes, type CommandNode, type CommandTree, type OptionSpec } from './tree.js';

const q = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const where = (n: CommandNode) => ['clinic', ...n.path].join(' ');

function values(spec: Pick<OptionSpec, 'choices' | 'completes' | 'commaList'>): string {
  if (spec.choices && spec.commaList) return ` -x -a ${q(`(__clinic_comma_list ${spec.choices.join(' ')})`)}`;
  if (spec.choices) return ` -x -a ${q(spec.choices.join(' '))}`;
  if (spec.completes === 'file') return ' -r -F';
  if (spec.completes === 'profile' || spec.completes === 'tenant')
    return ` -x -a ${q(`(__clinic_listed ${spec.completes})`)}`;
  return ' -x';
}

function optionLine(o: OptionSpec, condition?: string): string {
  const guard = condition ? ` -n ${q(condition)}` : '';
  const short = o.short ? ` -s ${o.short.slice(1)}` : '';
  const takes = o.value ? values(o) : '';
  // fish shows the description beside each value too: without the list of values it would repeat.
  const description = o.choices
    ? o.description.replace(/ \((comma-separated: )?[^()]*\)$/, '')
    : o.description;
  return `complete -c clinic${guard}${short} -l ${o.long.slice(2)}${takes} -d ${q(description)}`;
}

/**
 * The options of every command, one line an option: an option several commands share (the list flags, the bulk
 * ones) is one line naming all their paths, not a line per command.
 */
function optionLines(nodes: CommandNode[]): string[] {
  const shared = new Map<string, { option: OptionSpec; at: string[] }>();
  for (const n of nodes)
    for (const option of n.options) {
      const same = shared.get(optionLine(option)) ?? { option, at: [] };
      shared.set(optionLine(option), { option, at: [...same.at, q(where(n))] });
    }
  return [...shared.values()].map(({ option, at }) => optionLine(option, `__clinic_at_any ${at.join(' ')}`));
}

function nodeLines(n: CommandNode): string[] {
  const at = where(n);
  const lines: string[] = [];
  for (const c of n.children)
    lines.push(`complete -c clinic -n ${q(`__clinic_at ${q(at)} 0`)} -a ${q(c.name)} -d ${q(c.summary)}`);
  n.args.forEach((a, i) => {
    if (!a.choices && !a.completes) return;
    const position = a.variadic ? '' : ` ${i}`;
    const what = a.choices
      ? ` -a ${q(a.choices.join(' '))}`
      : a.completes === 'file'
        ? ' -F'
        : a.completes === 'command'
          ? ` -a ${q('(__clinic_command_words)')}`
          : ` -a ${q(`(__clinic_listed ${a.completes})`)}`;
    lines.push(`complete -c clinic -n ${q(`__clinic_at ${q(at)}${position}`)}${what} -d ${q(a.description)}`);
  });
  return lines;
}

export function fishScript(tree: CommandTree): string {
  const nodes = allNodes(tree);
  const subcommands = nodes
    .filter((n) => n.children.length > 0)
    .map(
      (n) =>
        `        case ${q(where(n))}\n            printf '%s\\n' ${n.children.map((c) => c.name).join(' ')}`,
    );
  const valued = (o: OptionSpec) => [o.short, o.long].filter((f): f is string => f !== undefined);
  const ownValued = nodes
    .map((n) => n.options.filter((o) => o.value).flatMap((o) => valued(o).map((f) => q(`${where(n)}|${f}`))))
    .filter((patterns) => patterns.length > 0)
    .map((patterns) => `        case ${patterns.join(' ')}\n            return 0`);
  const globalValued = tree.globals.filter((o) => o.value).flatMap(valued);
  return `# fish completion for clinic. Generated from the command declarations by \`npm run completions\`: do not edit.
# Use: save it as ~/.config/fish/completions/clinic.fish, or \`clinic completion fish | source\`.

# The verbs (or nouns) under a command path.
function __clinic_subcommands
    switch $argv[1]
${subcommands.join('\n')}
    end
end

# Whether option $argv[2] takes a value under command path $argv[1].
function __clinic_takes_value
    switch "$argv[1]|$argv[2]"
${ownValued.join('\n')}
    end
    contains -- $argv[2] ${globalValued.join(' ')}
end

# The command path before the cursor (\`clinic erasure list\`), how many arguments it has been given, and those.
function __clinic_state
    set -l line (commandline -cp)
    if test "$line" = "$__clinic_state_line"
        printf '%s\\n' $__clinic_state_value
        return
    end
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path clinic
    set -l position 0
    set -l arguments
    set -l skip 0
    set -l options_end 0
    for token in $tokens
        if test $skip = 1
            set skip 0
        else if test $options_end = 0; and string match -q -- '-?*' $token
            if test $token = --
                set options_end 1
            else if not string match -q -- '--*=*' $token; and __clinic_takes_value "$path" $token
                set skip 1
            end
        else if test $options_end = 0 -a $position = 0; and contains -- $token (__clinic_subcommands "$path")
            set path "$path $token"
        else
            set position (math $position + 1)
            set -a arguments $token
        end
    end
    set -g __clinic_state_line $line
    set -g __clinic_state_value $path $position $arguments
    printf '%s\\n' $path $position $arguments
end

# Whether the cursor is under command path $argv[1] (and, given $argv[2], at that argument, from 0).
function __clinic_at
    set -l state (__clinic_state)
    test "$state[1]" = "$argv[1]"; or return 1
    test (count $argv) -lt 2; or test "$state[2]" = "$argv[2]"
end

# Whether the cursor is under one of the command paths $argv, at any argument.
function __clinic_at_any
    contains -- (__clinic_state)[1] $argv
end

# The profile the line names before the cursor (--profile NAME, --profile=NAME; the last one given), printed;
# nothing when none is named. Fails for a name the CLI would refuse: its run could offer nothing.
function __clinic_line_profile
    set -l tokens (commandline -opc)
    set -l name
    for i in (seq 2 (count $tokens))
        if test "$tokens[$i]" = --profile; and test $i -lt (count $tokens)
            set name $tokens[(math $i + 1)]
        else if string match -q -- '--profile=*' $tokens[$i]
            set name (string replace -- --profile= '' $tokens[$i])
        end
    end
    test -z "$name"; and return 0
    string match -rq -- ${q(PROFILE_NAME)} $name; or return 1
    printf '%s\\n' $name
end

# Profile names ($argv[1] = profile) or the remembered tenant slugs (tenant) of the profile the line names, else of
# the selected one, one a line with a short description of its own (else fish shows the option's long one beside
# each), through the CLI itself (CLINIC_CONFIG_DIR is honoured; no request is sent); silent on failure. Only the
# values the CLI accepts (letters, digits, '.', '_', '-') are kept: any other line is dropped.
function __clinic_listed
    command -q clinic; or return 0
    if test "$argv[1]" = tenant
        set -l named (__clinic_line_profile); or return 0
        set -l chosen
        test -n "$named"; and set chosen --profile=$named
        ${TENANTS_COMMAND} $chosen </dev/null 2>/dev/null | string replace -rf -- ${q(TENANT_LINE)} '$1'\\t'remembered tenant'
    else
        env -u CLINIC_PROFILE ${PROFILES_COMMAND} </dev/null 2>/dev/null | string replace -rf -- ${q(PROFILE_LINE)} '$1'\\t'profile'
    end
end

# clinic help: the commands under the ones given before the cursor (\`clinic help erasure <TAB>\`).
function __clinic_command_words
    set -l state (__clinic_state)
    __clinic_subcommands (string join ' ' clinic $state[3..-1])
end

# The values of a comma-separated list, after what is already typed (\`created,de\` → \`created,deleted\`).
function __clinic_comma_list
    set -l typed (commandline -ct | string replace -r -- '^--[^=]*=' '')
    set -l done (string match -r -- '^.*,' $typed)
    set -l chosen (string split -- , "$done")
    for value in $argv
        # The values not chosen yet: \`created,<TAB>\` offers deleted and read, not created again.
        contains -- $value $chosen; or printf '%s%s\\n' "$done" $value
    end
end

complete -c clinic -f
${tree.globals.map((o) => optionLine(o)).join('\n')}
${optionLine(tree.help)}
${nodes.flatMap(nodeLines).join('\n')}
${optionLines(nodes).join('\n')}
`;
}
