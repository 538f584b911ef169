# bash completion for clinic. Generated from the command declarations by `npm run completions`: do not edit.
# Use: source it from ~/.bashrc (`source <(clinic completion bash)`), or save it as
# ~/.local/share/bash-completion/completions/clinic.

# The verbs (or nouns) under a command path: sets the array __clinic_words; fails for a command that runs.
__clinic_subcommands() {
  case $1 in
    '') __clinic_words=('login' 'logout' 'auth' 'account' 'tenants' 'config' 'customers' 'users' 'appointments' 'leads' 'conversations' 'chat' 'channels' 'form-templates' 'announcements' 'ai-reports' 'sales' 'transaction-types' 'erasure' 'api' 'doctor' 'completion' 'man' 'sandbox' 'help') ;;
    'auth') __clinic_words=('status' 'token' 'refresh') ;;
    'tenants') __clinic_words=('list' 'use') ;;
    'config') __clinic_words=('get' 'set' 'unset' 'list' 'use-profile' 'profiles') ;;
    'customers') __clinic_words=('list' 'get' 'create') ;;
    'users') __clinic_words=('get') ;;
    'appointments') __clinic_words=('list') ;;
    'leads') __clinic_words=('notes') ;;
    'leads notes') __clinic_words=('add') ;;
    'conversations') __clinic_words=('messages' 'message' 'send-voice' 'agent') ;;
    'conversations agent') __clinic_words=('status' 'enable' 'disable') ;;
    'chat') __clinic_words=('tail') ;;
    'channels') __clinic_words=('list') ;;
    'form-templates') __clinic_words=('update') ;;
    'announcements') __clinic_words=('get') ;;
    'ai-reports') __clinic_words=('pdf') ;;
    'sales') __clinic_words=('stock-deduct') ;;
    'transaction-types') __clinic_words=('list') ;;
    'erasure') __clinic_words=('list' 'get' 'create' 'resend' 'cancel' 'retry' 'certificate' 'watch') ;;
    'sandbox') __clinic_words=('start') ;;
    *) __clinic_words=() && return 1 ;;
  esac
}

# The options of a command path, besides the global ones: sets the array __clinic_words.
__clinic_options() {
  case $1 in
    '') __clinic_words=('-V' '--version') ;;
    'login') __clinic_words=('--with-token' '--insecure-storage' '--scopes' '--port' '--timeout' '--no-browser') ;;
    'logout') __clinic_words=('--all-profiles' '--end-session') ;;
    'tenants list') __clinic_words=('--offline') ;;
    'config use-profile') __clinic_words=('--create') ;;
    'customers list') __clinic_words=('--page' '--per-page' '--all' '--limit' '--filter') ;;
    'customers create') __clinic_words=('--data' '--set' '--from' '--format' '--journal' '--resume' '--restart' '--retry-unknown') ;;
    'appointments list') __clinic_words=('--page' '--per-page' '--all' '--limit' '--filter') ;;
    'leads notes add') __clinic_words=('--content' '--user-id' '--set' '--from' '--format' '--journal' '--resume' '--restart' '--retry-unknown') ;;
    'conversations messages') __clinic_words=('--page' '--per-page' '--all' '--limit' '--filter' '--after') ;;
    'conversations send-voice') __clinic_words=('--max-kib') ;;
    'chat tail') __clinic_words=('--conversation' '--since' '--events' '--timeout' '--reconnect-timeout' '--checkpoint' '--forward-to' '--forward-secret') ;;
    'channels list') __clinic_words=('--page' '--per-page' '--all' '--limit' '--filter') ;;
    'form-templates update') __clinic_words=('--name' '--description' '--active' '--inactive') ;;
    'ai-reports pdf') __clinic_words=('-O' '--output-file' '--force') ;;
    'transaction-types list') __clinic_words=('--page' '--per-page' '--all' '--limit' '--filter') ;;
    'erasure list') __clinic_words=('--page' '--per-page' '--all' '--limit' '--filter' '--status' '--created-from' '--created-to' '--sort-by' '--sort-order') ;;
    'erasure create') __clinic_words=('--customer' '--reason' '--set' '--from' '--format' '--journal' '--resume' '--restart' '--retry-unknown') ;;
    'erasure cancel') __clinic_words=('--reason') ;;
    'erasure certificate') __clinic_words=('-O' '--output-file' '--force') ;;
    'erasure watch') __clinic_words=('--interval' '--timeout') ;;
    'api') __clinic_words=('-X' '--method' '-F' '--field' '-f' '--raw-field' '-H' '--header' '--input' '--paginate') ;;
    'sandbox start') __clinic_words=('--port' '--seed' '--records' '--rate-limit' '--faults' '--latency' '--chatter' '--access-token-ttl' '--refresh-token-ttl' '--erasure-step' '--write-profile' '--no-write-profile') ;;
    *) __clinic_words=() ;;
  esac
  __clinic_words+=('--profile' '--tenant' '--base-url' '-o' '--output' '--json' '--fields' '--raw' '--csv-raw' '--debug' '--no-color' '-y' '--yes' '--no-input' '--dry-run' '-q' '--quiet' '--jq' '--wide' '--utc' '--max-retries' '--concurrency' '--request-timeout' '-h' '--help')
}

# What the value of option $2 under command path $1 is: sets __clinic_kind (flag if it takes none).
__clinic_option() {
  __clinic_values=()
  case "$1|$2" in
    'login|--scopes') __clinic_kind=none ;;
    'login|--port' | 'sandbox start|--port') __clinic_kind=none ;;
    'login|--timeout' | 'chat tail|--timeout' | 'erasure watch|--timeout') __clinic_kind=none ;;
    'customers list|--page' | 'appointments list|--page' | 'conversations messages|--page' | 'channels list|--page' | 'transaction-types list|--page' | 'erasure list|--page') __clinic_kind=none ;;
    'customers list|--per-page' | 'appointments list|--per-page' | 'conversations messages|--per-page' | 'channels list|--per-page' | 'transaction-types list|--per-page' | 'erasure list|--per-page') __clinic_kind=none ;;
    'customers list|--limit' | 'appointments list|--limit' | 'conversations messages|--limit' | 'channels list|--limit' | 'transaction-types list|--limit' | 'erasure list|--limit') __clinic_kind=none ;;
    'customers list|--filter' | 'appointments list|--filter' | 'conversations messages|--filter' | 'channels list|--filter' | 'transaction-types list|--filter' | 'erasure list|--filter') __clinic_kind=none ;;
    'customers create|--data') __clinic_kind=none ;;
    'customers create|--set' | 'leads notes add|--set' | 'erasure create|--set') __clinic_kind=none ;;
    'customers create|--from' | 'leads notes add|--from' | 'erasure create|--from') __clinic_kind=file ;;
    'customers create|--format' | 'leads notes add|--format' | 'erasure create|--format') __clinic_kind=choice __clinic_values=('ndjson' 'csv') ;;
    'customers create|--journal' | 'leads notes add|--journal' | 'erasure create|--journal') __clinic_kind=file ;;
    'leads notes add|--content') __clinic_kind=none ;;
    'leads notes add|--user-id') __clinic_kind=none ;;
    'conversations messages|--after') __clinic_kind=none ;;
    'conversations send-voice|--max-kib') __clinic_kind=none ;;
    'chat tail|--conversation') __clinic_kind=none ;;
    'chat tail|--since') __clinic_kind=none ;;
    'chat tail|--events') __clinic_kind=list __clinic_values=('created' 'deleted' 'read') ;;
    'chat tail|--reconnect-timeout') __clinic_kind=none ;;
    'chat tail|--checkpoint') __clinic_kind=file ;;
    'chat tail|--forward-to') __clinic_kind=none ;;
    'chat tail|--forward-secret') __clinic_kind=none ;;
    'form-templates update|--name') __clinic_kind=none ;;
    'form-templates update|--description') __clinic_kind=none ;;
    'ai-reports pdf|-O' | 'ai-reports pdf|--output-file' | 'erasure certificate|-O' | 'erasure certificate|--output-file') __clinic_kind=file ;;
    'erasure list|--status') __clinic_kind=choice __clinic_values=('pending_verification' 'verified' 'processing' 'completed' 'expired' 'cancelled' 'failed') ;;
    'erasure list|--created-from') __clinic_kind=none ;;
    'erasure list|--created-to') __clinic_kind=none ;;
    'erasure list|--sort-by') __clinic_kind=choice __clinic_values=('created_at' 'verified_at' 'executed_at' 'status') ;;
    'erasure list|--sort-order') __clinic_kind=choice __clinic_values=('asc' 'desc') ;;
    'erasure create|--customer') __clinic_kind=none ;;
    'erasure create|--reason' | 'erasure cancel|--reason') __clinic_kind=none ;;
    'erasure watch|--interval') __clinic_kind=none ;;
    'api|-X' | 'api|--method') __clinic_kind=none ;;
    'api|-F' | 'api|--field') __clinic_kind=none ;;
    'api|-f' | 'api|--raw-field') __clinic_kind=none ;;
    'api|-H' | 'api|--header') __clinic_kind=none ;;
    'api|--input') __clinic_kind=file ;;
    'sandbox start|--seed') __clinic_kind=none ;;
    'sandbox start|--records') __clinic_kind=none ;;
    'sandbox start|--rate-limit') __clinic_kind=none ;;
    'sandbox start|--faults') __clinic_kind=none ;;
    'sandbox start|--latency') __clinic_kind=none ;;
    'sandbox start|--chatter') __clinic_kind=none ;;
    'sandbox start|--access-token-ttl') __clinic_kind=none ;;
    'sandbox start|--refresh-token-ttl') __clinic_kind=none ;;
    'sandbox start|--erasure-step') __clinic_kind=none ;;
    'sandbox start|--write-profile') __clinic_kind=none ;;
    *'|'--profile) __clinic_kind=profile ;;
    *'|'--tenant) __clinic_kind=tenant ;;
    *'|'--base-url) __clinic_kind=none ;;
    *'|'-o | *'|'--output) __clinic_kind=choice __clinic_values=('table' 'json' 'ndjson' 'csv') ;;
    *'|'--fields) __clinic_kind=none ;;
    *'|'--jq) __clinic_kind=none ;;
    *'|'--max-retries) __clinic_kind=none ;;
    *'|'--concurrency) __clinic_kind=none ;;
    *'|'--request-timeout) __clinic_kind=none ;;
    *) __clinic_kind=flag ;;
  esac
}

# What the argument at position $2 (from 0) of command path $1 is: sets __clinic_kind.
__clinic_argument() {
  __clinic_kind=none __clinic_values=()
  case $1 in
    'tenants use')
      case $2 in
      0) __clinic_kind=tenant ;;
      esac
      ;;
    'config get')
      case $2 in
      0) __clinic_kind=choice __clinic_values=('base_url' 'auth_url' 'client_id' 'scopes' 'tenant' 'output' 'realtime.key' 'realtime.cluster' 'realtime.host' 'realtime.port' 'realtime.tls' 'realtime.auth_endpoint' 'credential_store') ;;
      esac
      ;;
    'config set')
      case $2 in
      0) __clinic_kind=choice __clinic_values=('base_url' 'auth_url' 'client_id' 'scopes' 'tenant' 'output' 'realtime.key' 'realtime.cluster' 'realtime.host' 'realtime.port' 'realtime.tls' 'realtime.auth_endpoint' 'credential_store') ;;
      esac
      ;;
    'config unset')
      case $2 in
      0) __clinic_kind=choice __clinic_values=('base_url' 'auth_url' 'client_id' 'scopes' 'tenant' 'output' 'realtime.key' 'realtime.cluster' 'realtime.host' 'realtime.port' 'realtime.tls' 'realtime.auth_endpoint' 'credential_store') ;;
      esac
      ;;
    'config use-profile')
      case $2 in
      0) __clinic_kind=profile ;;
      esac
      ;;
    'conversations send-voice')
      case $2 in
      1) __clinic_kind=file ;;
      esac
      ;;
    'completion')
      case $2 in
      0) __clinic_kind=choice __clinic_values=('bash' 'zsh' 'fish') ;;
      esac
      ;;
    'help')
      case $2 in
      0 | [1-9]*) __clinic_kind=command ;;
      esac
      ;;
  esac
}

# Adds to COMPREPLY each word after $1 and $2 that starts with $1, with $2 before it (`--opt=`). The words are data:
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
  local i word valid='^[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_][ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]{0,63}$'
  __clinic_profile=
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == --profile ]]; then
      __clinic_profile=${COMP_WORDS[i + 1]}
      [[ $__clinic_profile == = ]] && __clinic_profile=${COMP_WORDS[i + 2]}
    elif [[ $word == --profile=* ]]; then
      __clinic_profile=${word#--profile=}
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
  local line valid='^[{]"name":"([ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_][ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]{0,63})"[}]$'
  if [[ $1 == tenant ]]; then
    valid='^[{]"slug":"([ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789][ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]{0,99})"[}]$'
    __clinic_line_profile || return 0
  fi
  while IFS= read -r line; do
    [[ $line =~ $valid ]] && printf '%s\n' "${BASH_REMATCH[1]}"
  done < <(if [[ $1 == tenant ]]; then clinic tenants list --offline -o ndjson --fields slug --no-input --no-color ${__clinic_profile:+"--profile=$__clinic_profile"}; else unset CLINIC_PROFILE; clinic config profiles -o ndjson --fields name --no-input --no-color; fi </dev/null 2>/dev/null)
}

# Fills COMPREPLY with the values of __clinic_kind that start with $1; $2 goes before each (`--opt=`).
__clinic_values_of() {
  local cur=$1 before=$2 line
  local -a listed
  case $__clinic_kind in
    choice) __clinic_add "$cur" "$before" "${__clinic_values[@]}" ;;
    list)
      # The values not chosen yet: `created,<TAB>` offers deleted and read, not created again.
      local -a chosen=() left=()
      if [[ $cur == *,* ]]; then
        before+=${cur%,*},
        IFS=, read -ra chosen <<<"${cur%,*}"
      fi
      for line in "${__clinic_values[@]}"; do
        __clinic_in "$line" "${chosen[@]}" || left+=("$line")
      done
      __clinic_add "${cur##*,}" "$before" "${left[@]}"
      ;;
    file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      if [[ -n $before ]]; then
        for line in "${!COMPREPLY[@]}"; do COMPREPLY[line]=$before${COMPREPLY[line]}; done
      fi
      ;;
    profile | tenant)
      mapfile -t listed < <(__clinic_listed "$__clinic_kind")
      __clinic_add "$cur" "$before" "${listed[@]}"
      ;;
    # clinic help: the commands under the ones already given.
    command) __clinic_subcommands "${__clinic_args[*]}" && __clinic_add "$cur" "$before" "${__clinic_words[@]}" ;;
  esac
}

# Whether $1 is one of the words after it.
__clinic_in() {
  local word
  for word in "${@:2}"; do [[ $word == "$1" ]] && return 0; done
  return 1
}

_clinic() {
  local cur=${COMP_WORDS[COMP_CWORD]} node='' word opt=''
  local -i i=1 next position=0 options_end=0
  local __clinic_kind
  local -a __clinic_words __clinic_values __clinic_args
  COMPREPLY=()
  # Walk the words before the cursor: the command path, the arguments given, and whether the cursor is on the value
  # of an option (`--status <TAB>`, or `--status=<TAB>`, which bash splits into `--status`, `=`, ...).
  while ((i < COMP_CWORD)); do
    word=${COMP_WORDS[i]}
    if ((options_end)) || [[ $word != -?* ]]; then
      if ((!options_end && position == 0)) && __clinic_subcommands "$node" && __clinic_in "$word" "${__clinic_words[@]}"; then
        node=${node:+$node }$word
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
        [[ ${COMP_WORDS[next]} == = ]] && next+=1
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
    __clinic_option "$node" "${cur%%=*}"
    __clinic_values_of "${cur#*=}" "${cur%%=*}="
  elif ((!options_end)) && [[ $cur == -* ]]; then
    __clinic_options "$node"
    __clinic_add "$cur" '' "${__clinic_words[@]}"
  elif ((position == 0)) && __clinic_subcommands "$node"; then
    __clinic_add "$cur" '' "${__clinic_words[@]}"
  else
    __clinic_argument "$node" "$position"
    __clinic_values_of "$cur" ''
  fi
  return 0
}

complete -F _clinic clinic
