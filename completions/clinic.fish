# fish completion for clinic. Generated from the command declarations by `npm run completions`: do not edit.
# Use: save it as ~/.config/fish/completions/clinic.fish, or `clinic completion fish | source`.

# The verbs (or nouns) under a command path.
function __clinic_subcommands
    switch $argv[1]
        case 'clinic'
            printf '%s\n' login logout auth account tenants config customers users appointments leads conversations chat channels form-templates announcements ai-reports sales transaction-types erasure api doctor completion man sandbox help
        case 'clinic auth'
            printf '%s\n' status token refresh
        case 'clinic tenants'
            printf '%s\n' list use
        case 'clinic config'
            printf '%s\n' get set unset list use-profile profiles
        case 'clinic customers'
            printf '%s\n' list get create
        case 'clinic users'
            printf '%s\n' get
        case 'clinic appointments'
            printf '%s\n' list
        case 'clinic leads'
            printf '%s\n' notes
        case 'clinic leads notes'
            printf '%s\n' add
        case 'clinic conversations'
            printf '%s\n' messages message send-voice agent
        case 'clinic conversations agent'
            printf '%s\n' status enable disable
        case 'clinic chat'
            printf '%s\n' tail
        case 'clinic channels'
            printf '%s\n' list
        case 'clinic form-templates'
            printf '%s\n' update
        case 'clinic announcements'
            printf '%s\n' get
        case 'clinic ai-reports'
            printf '%s\n' pdf
        case 'clinic sales'
            printf '%s\n' stock-deduct
        case 'clinic transaction-types'
            printf '%s\n' list
        case 'clinic erasure'
            printf '%s\n' list get create resend cancel retry certificate watch
        case 'clinic sandbox'
            printf '%s\n' start
    end
end

# Whether option $argv[2] takes a value under command path $argv[1].
function __clinic_takes_value
    switch "$argv[1]|$argv[2]"
        case 'clinic login|--scopes' 'clinic login|--port' 'clinic login|--timeout'
            return 0
        case 'clinic customers list|--page' 'clinic customers list|--per-page' 'clinic customers list|--limit' 'clinic customers list|--filter'
            return 0
        case 'clinic customers create|--data' 'clinic customers create|--set' 'clinic customers create|--from' 'clinic customers create|--format' 'clinic customers create|--journal'
            return 0
        case 'clinic appointments list|--page' 'clinic appointments list|--per-page' 'clinic appointments list|--limit' 'clinic appointments list|--filter'
            return 0
        case 'clinic leads notes add|--content' 'clinic leads notes add|--user-id' 'clinic leads notes add|--set' 'clinic leads notes add|--from' 'clinic leads notes add|--format' 'clinic leads notes add|--journal'
            return 0
        case 'clinic conversations messages|--page' 'clinic conversations messages|--per-page' 'clinic conversations messages|--limit' 'clinic conversations messages|--filter' 'clinic conversations messages|--after'
            return 0
        case 'clinic conversations send-voice|--max-kib'
            return 0
        case 'clinic chat tail|--conversation' 'clinic chat tail|--since' 'clinic chat tail|--events' 'clinic chat tail|--timeout' 'clinic chat tail|--reconnect-timeout' 'clinic chat tail|--checkpoint' 'clinic chat tail|--forward-to' 'clinic chat tail|--forward-secret'
            return 0
        case 'clinic channels list|--page' 'clinic channels list|--per-page' 'clinic channels list|--limit' 'clinic channels list|--filter'
            return 0
        case 'clinic form-templates update|--name' 'clinic form-templates update|--description'
            return 0
        case 'clinic ai-reports pdf|-O' 'clinic ai-reports pdf|--output-file'
            return 0
        case 'clinic transaction-types list|--page' 'clinic transaction-types list|--per-page' 'clinic transaction-types list|--limit' 'clinic transaction-types list|--filter'
            return 0
        case 'clinic erasure list|--page' 'clinic erasure list|--per-page' 'clinic erasure list|--limit' 'clinic erasure list|--filter' 'clinic erasure list|--status' 'clinic erasure list|--created-from' 'clinic erasure list|--created-to' 'clinic erasure list|--sort-by' 'clinic erasure list|--sort-order'
            return 0
        case 'clinic erasure create|--customer' 'clinic erasure create|--reason' 'clinic erasure create|--set' 'clinic erasure create|--from' 'clinic erasure create|--format' 'clinic erasure create|--journal'
            return 0
        case 'clinic erasure cancel|--reason'
            return 0
        case 'clinic erasure certificate|-O' 'clinic erasure certificate|--output-file'
            return 0
        case 'clinic erasure watch|--interval' 'clinic erasure watch|--timeout'
            return 0
        case 'clinic api|-X' 'clinic api|--method' 'clinic api|-F' 'clinic api|--field' 'clinic api|-f' 'clinic api|--raw-field' 'clinic api|-H' 'clinic api|--header' 'clinic api|--input'
            return 0
        case 'clinic sandbox start|--port' 'clinic sandbox start|--seed' 'clinic sandbox start|--records' 'clinic sandbox start|--rate-limit' 'clinic sandbox start|--faults' 'clinic sandbox start|--latency' 'clinic sandbox start|--chatter' 'clinic sandbox start|--access-token-ttl' 'clinic sandbox start|--refresh-token-ttl' 'clinic sandbox start|--erasure-step' 'clinic sandbox start|--write-profile'
            return 0
    end
    contains -- $argv[2] --profile --tenant --base-url -o --output --fields --jq --max-retries --concurrency --request-timeout
end

# The command path before the cursor (`clinic erasure list`), how many arguments it has been given, and those.
function __clinic_state
    set -l line (commandline -cp)
    if test "$line" = "$__clinic_state_line"
        printf '%s\n' $__clinic_state_value
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
    printf '%s\n' $path $position $arguments
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
    string match -rq -- '^[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_][ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]{0,63}$' $name; or return 1
    printf '%s\n' $name
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
        clinic tenants list --offline -o ndjson --fields slug --no-input --no-color $chosen </dev/null 2>/dev/null | string replace -rf -- '^[{]"slug":"([ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789][ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]{0,99})"[}]$' '$1'\t'remembered tenant'
    else
        env -u CLINIC_PROFILE clinic config profiles -o ndjson --fields name --no-input --no-color </dev/null 2>/dev/null | string replace -rf -- '^[{]"name":"([ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_][ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-]{0,63})"[}]$' '$1'\t'profile'
    end
end

# clinic help: the commands under the ones given before the cursor (`clinic help erasure <TAB>`).
function __clinic_command_words
    set -l state (__clinic_state)
    __clinic_subcommands (string join ' ' clinic $state[3..-1])
end

# The values of a comma-separated list, after what is already typed (`created,de` → `created,deleted`).
function __clinic_comma_list
    set -l typed (commandline -ct | string replace -r -- '^--[^=]*=' '')
    set -l done (string match -r -- '^.*,' $typed)
    set -l chosen (string split -- , "$done")
    for value in $argv
        # The values not chosen yet: `created,<TAB>` offers deleted and read, not created again.
        contains -- $value $chosen; or printf '%s%s\n' "$done" $value
    end
end

complete -c clinic -f
complete -c clinic -l profile -x -a '(__clinic_listed profile)' -d 'profile to use (default: CLINIC_PROFILE, else the config\'s current_profile, else default)'
complete -c clinic -l tenant -x -a '(__clinic_listed tenant)' -d 'tenant for this call (X-Tenant, sent as the id; a slug is looked up once and remembered in the profile; default: CLINIC_TENANT, else the profile\'s tenant)'
complete -c clinic -l base-url -x -d 'API address for this call (default: CLINIC_BASE_URL, else the profile\'s base_url)'
complete -c clinic -s o -l output -x -a 'table json ndjson csv' -d 'output format: table, json, ndjson, csv'
complete -c clinic -l json -d 'same as -o json'
complete -c clinic -l fields -x -d 'pick fields (dotted paths) for every format'
complete -c clinic -l raw -d 'print the server\'s JSON body untouched (refused by a command that prints none)'
complete -c clinic -l csv-raw -d 'CSV cells exactly as they are: no \' before cells a spreadsheet would run as formulas, and on a terminal control characters kept (by default CSV on a terminal is sanitized like a table)'
complete -c clinic -l debug -d 'trace each HTTP exchange to stderr, secrets redacted (also CLINIC_DEBUG=1)'
complete -c clinic -l no-color -d 'no colour (also NO_COLOR, or TERM=dumb)'
complete -c clinic -s y -l yes -d 'answer yes to confirmations'
complete -c clinic -l no-input -d 'never prompt; fail where a prompt would be needed'
complete -c clinic -l dry-run -d 'on commands that write: print the request and send nothing; a command with no dry run refuses it (exit 2)'
complete -c clinic -s q -l quiet -d 'nothing on stderr but errors: no progress, retries, waits, notes or warnings, except one that output may be incomplete (an export whose collection changed while it was read, chat events dropped)'
complete -c clinic -l jq -x -d 'filter what -o json would print through a jq expression; strings print raw; the output is read whole first'
complete -c clinic -l wide -d 'tables show every column in full, whatever the terminal\'s width'
complete -c clinic -l utc -d 'human views show times in UTC instead of local time'
complete -c clinic -l max-retries -x -d 'retries for retryable failures (default 4; 0 = off)'
complete -c clinic -l concurrency -x -d 'requests in flight for --all and bulk runs when the rate-limit budget allows (default: automatic); output stays in order'
complete -c clinic -l request-timeout -x -d 'deadline of one whole HTTP exchange, body included (default 60; CLINIC_REQUEST_TIMEOUT); not downloads or chat tail'
complete -c clinic -s h -l help -d 'show help'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'login' -d 'sign in (browser, or a token from stdin) and store the token for the profile'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'logout' -d 'revoke and delete the profile\'s stored tokens'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'auth' -d 'inspect and renew the sign-in: status, token, refresh'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'account' -d 'show the signed-in user and their tenants'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'tenants' -d 'list tenants and choose the default one'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'config' -d 'read and change settings and profiles'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'customers' -d 'customers (patients): list, get, create'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'users' -d 'users (staff) of the tenant'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'appointments' -d 'appointments of the tenant'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'leads' -d 'leads (prospective patients): notes'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'conversations' -d 'conversations with patients: messages, voice, AI assistant'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'chat' -d 'live chat events: tail'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'channels' -d 'messaging channels of the tenant'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'form-templates' -d 'form templates (questionnaires)'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'announcements' -d 'announcements to the clinic'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'ai-reports' -d 'AI reports as PDF'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'sales' -d 'sales and their stock'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'transaction-types' -d 'bank account transaction types'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'erasure' -d 'data-erasure requests: erase a patient\'s data for good, safely'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'api' -d 'make any API request and print the body'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'doctor' -d 'check why this machine cannot talk to the API, one line per check with the fix'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'man' -d 'show the manual page; into a pipe or a file, its source (roff) for man'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'sandbox' -d 'a local Clinic API to try everything on'
complete -c clinic -n '__clinic_at \'clinic\' 0' -a 'help' -d 'show a command\'s help: clinic help erasure list'
complete -c clinic -n '__clinic_at \'clinic auth\' 0' -a 'status' -d 'show the signed-in user, tenant, scopes, expiry and where the token is stored'
complete -c clinic -n '__clinic_at \'clinic auth\' 0' -a 'token' -d 'print the current access token and nothing else'
complete -c clinic -n '__clinic_at \'clinic auth\' 0' -a 'refresh' -d 'get a new access token now with the refresh token'
complete -c clinic -n '__clinic_at \'clinic tenants\' 0' -a 'list' -d 'list the account\'s tenants (clinics)'
complete -c clinic -n '__clinic_at \'clinic tenants\' 0' -a 'use' -d 'save a tenant as the profile\'s default (X-Tenant)'
complete -c clinic -n '__clinic_at \'clinic tenants use\' 0' -a '(__clinic_listed tenant)' -d 'tenant id or slug'
complete -c clinic -n '__clinic_at \'clinic config\' 0' -a 'get' -d 'print the effective value of a key (flag > env > profile > default)'
complete -c clinic -n '__clinic_at \'clinic config\' 0' -a 'set' -d 'set a key in the selected profile'
complete -c clinic -n '__clinic_at \'clinic config\' 0' -a 'unset' -d 'remove a key from the selected profile'
complete -c clinic -n '__clinic_at \'clinic config\' 0' -a 'list' -d 'list the keys of the selected profile with their effective values and sources'
complete -c clinic -n '__clinic_at \'clinic config\' 0' -a 'use-profile' -d 'make a profile the current one'
complete -c clinic -n '__clinic_at \'clinic config\' 0' -a 'profiles' -d 'list the profiles in the config file'
complete -c clinic -n '__clinic_at \'clinic config get\' 0' -a 'base_url auth_url client_id scopes tenant output realtime.key realtime.cluster realtime.host realtime.port realtime.tls realtime.auth_endpoint credential_store' -d 'config key'
complete -c clinic -n '__clinic_at \'clinic config set\' 0' -a 'base_url auth_url client_id scopes tenant output realtime.key realtime.cluster realtime.host realtime.port realtime.tls realtime.auth_endpoint credential_store' -d 'config key, e.g. base_url or realtime.host'
complete -c clinic -n '__clinic_at \'clinic config unset\' 0' -a 'base_url auth_url client_id scopes tenant output realtime.key realtime.cluster realtime.host realtime.port realtime.tls realtime.auth_endpoint credential_store' -d 'config key'
complete -c clinic -n '__clinic_at \'clinic config use-profile\' 0' -a '(__clinic_listed profile)' -d 'profile name'
complete -c clinic -n '__clinic_at \'clinic customers\' 0' -a 'list' -d 'list customers (patients) of the tenant'
complete -c clinic -n '__clinic_at \'clinic customers\' 0' -a 'get' -d 'show one customer'
complete -c clinic -n '__clinic_at \'clinic customers\' 0' -a 'create' -d 'create a customer'
complete -c clinic -n '__clinic_at \'clinic users\' 0' -a 'get' -d 'show one user of the tenant'
complete -c clinic -n '__clinic_at \'clinic appointments\' 0' -a 'list' -d 'list appointments of the tenant'
complete -c clinic -n '__clinic_at \'clinic leads\' 0' -a 'notes' -d 'notes on a lead'
complete -c clinic -n '__clinic_at \'clinic leads notes\' 0' -a 'add' -d 'add a note to a lead'
complete -c clinic -n '__clinic_at \'clinic conversations\' 0' -a 'messages' -d 'list the messages of a conversation'
complete -c clinic -n '__clinic_at \'clinic conversations\' 0' -a 'message' -d 'show one message of a conversation'
complete -c clinic -n '__clinic_at \'clinic conversations\' 0' -a 'send-voice' -d 'send an audio file as a voice message'
complete -c clinic -n '__clinic_at \'clinic conversations\' 0' -a 'agent' -d 'the AI assistant of a conversation: status, enable, disable'
complete -c clinic -n '__clinic_at \'clinic conversations send-voice\' 1' -F -d 'audio file'
complete -c clinic -n '__clinic_at \'clinic conversations agent\' 0' -a 'status' -d 'show whether the AI assistant answers in a conversation'
complete -c clinic -n '__clinic_at \'clinic conversations agent\' 0' -a 'enable' -d 'let the AI assistant answer in a conversation'
complete -c clinic -n '__clinic_at \'clinic conversations agent\' 0' -a 'disable' -d 'stop the AI assistant answering in a conversation'
complete -c clinic -n '__clinic_at \'clinic chat\' 0' -a 'tail' -d 'print the tenant\'s chat events as they happen, each message exactly once'
complete -c clinic -n '__clinic_at \'clinic channels\' 0' -a 'list' -d 'list the messaging channels of the tenant'
complete -c clinic -n '__clinic_at \'clinic form-templates\' 0' -a 'update' -d 'change the name, description or active state of a form template'
complete -c clinic -n '__clinic_at \'clinic announcements\' 0' -a 'get' -d 'show one announcement'
complete -c clinic -n '__clinic_at \'clinic ai-reports\' 0' -a 'pdf' -d 'download an AI report as a PDF'
complete -c clinic -n '__clinic_at \'clinic sales\' 0' -a 'stock-deduct' -d 'deduct from stock the product items of a sale (asks first)'
complete -c clinic -n '__clinic_at \'clinic transaction-types\' 0' -a 'list' -d 'list the bank account transaction types (slug and label)'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'list' -d 'list data-erasure requests'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'get' -d 'show one data-erasure request and the actions its state allows'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'create' -d 'request the erasure of a customer\'s data (asks you to type the customer id back)'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'resend' -d 'send the verification message again'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'cancel' -d 'withdraw a request (asks first)'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'retry' -d 'run a failed request again (asks first)'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'certificate' -d 'download the erasure certificate of a completed request (PDF)'
complete -c clinic -n '__clinic_at \'clinic erasure\' 0' -a 'watch' -d 'follow a request until it ends; exit 0 only when it completed'
complete -c clinic -n '__clinic_at \'clinic completion\' 0' -a 'bash zsh fish' -d 'bash, zsh or fish'
complete -c clinic -n '__clinic_at \'clinic sandbox\' 0' -a 'start' -d 'run a local Clinic API with seeded data'
complete -c clinic -n '__clinic_at \'clinic help\'' -a '(__clinic_command_words)' -d 'the command, e.g. erasure list'
complete -c clinic -n '__clinic_at_any \'clinic\'' -s V -l version -d 'print the version'
complete -c clinic -n '__clinic_at_any \'clinic login\'' -l with-token -d 'read a personal access token from standard input'
complete -c clinic -n '__clinic_at_any \'clinic login\'' -l insecure-storage -d 'store the token in a plain 0600 file instead of the keychain'
complete -c clinic -n '__clinic_at_any \'clinic login\'' -l scopes -x -d 'space-separated scopes to ask for (default: config scopes, "openid *")'
complete -c clinic -n '__clinic_at_any \'clinic login\'' -l port -x -d 'fixed loopback port (for a registered redirect URI); default any free port'
complete -c clinic -n '__clinic_at_any \'clinic login\'' -l timeout -x -d 'how long to wait for the browser (default 300)'
complete -c clinic -n '__clinic_at_any \'clinic login\'' -l no-browser -d 'print the sign-in address instead of opening a browser; accept a pasted address'
complete -c clinic -n '__clinic_at_any \'clinic logout\'' -l all-profiles -d 'log out of every profile'
complete -c clinic -n '__clinic_at_any \'clinic logout\'' -l end-session -d 'print the server\'s end-session address for the browser'
complete -c clinic -n '__clinic_at_any \'clinic tenants list\'' -l offline -d 'only the tenants this profile remembers (from tenants use and --tenant SLUG): no request is sent'
complete -c clinic -n '__clinic_at_any \'clinic config use-profile\'' -l create -d 'make a new profile of that name (without it, only a profile in the file is taken)'
complete -c clinic -n '__clinic_at_any \'clinic customers list\' \'clinic appointments list\' \'clinic conversations messages\' \'clinic channels list\' \'clinic transaction-types list\' \'clinic erasure list\'' -l page -x -d 'page to fetch (>= 1)'
complete -c clinic -n '__clinic_at_any \'clinic customers list\' \'clinic appointments list\' \'clinic conversations messages\' \'clinic channels list\' \'clinic transaction-types list\' \'clinic erasure list\'' -l per-page -x -d 'records per page (1..100)'
complete -c clinic -n '__clinic_at_any \'clinic customers list\' \'clinic appointments list\' \'clinic conversations messages\' \'clinic channels list\' \'clinic transaction-types list\' \'clinic erasure list\'' -l all -d 'follow every page from the first, streaming the records (not with --page)'
complete -c clinic -n '__clinic_at_any \'clinic customers list\' \'clinic appointments list\' \'clinic conversations messages\' \'clinic channels list\' \'clinic transaction-types list\' \'clinic erasure list\'' -l limit -x -d 'stop after N records (follows pages as needed)'
complete -c clinic -n '__clinic_at_any \'clinic customers list\' \'clinic appointments list\' \'clinic conversations messages\' \'clinic channels list\' \'clinic transaction-types list\' \'clinic erasure list\'' -l filter -x -d 'extra query parameter (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic customers create\'' -l data -x -d 'the body: JSON text, @file, or - for stdin'
complete -c clinic -n '__clinic_at_any \'clinic customers create\'' -l set -x -d 'set a field (key:=json for non-strings); with --from, on every record (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic customers create\' \'clinic leads notes add\' \'clinic erasure create\'' -l from -r -F -d 'send one request per record of FILE (.ndjson or .csv; - = stdin, with --format)'
complete -c clinic -n '__clinic_at_any \'clinic customers create\' \'clinic leads notes add\' \'clinic erasure create\'' -l format -x -a 'ndjson csv' -d 'format of --from (default: from the extension)'
complete -c clinic -n '__clinic_at_any \'clinic customers create\' \'clinic leads notes add\' \'clinic erasure create\'' -l journal -r -F -d 'journal of the run (default FILE.journal; required with --from - and other pipes)'
complete -c clinic -n '__clinic_at_any \'clinic customers create\' \'clinic leads notes add\' \'clinic erasure create\'' -l resume -d 'go on from the journal: skip lines already done, report possibly-sent ones unknown'
complete -c clinic -n '__clinic_at_any \'clinic customers create\' \'clinic leads notes add\' \'clinic erasure create\'' -l restart -d 'start over, replacing the journal (records it created would be created again)'
complete -c clinic -n '__clinic_at_any \'clinic customers create\' \'clinic leads notes add\' \'clinic erasure create\'' -l retry-unknown -d 'with --resume: send again the lines whose answer was lost (may duplicate them)'
complete -c clinic -n '__clinic_at_any \'clinic leads notes add\'' -l content -x -d 'the text of the note'
complete -c clinic -n '__clinic_at_any \'clinic leads notes add\'' -l user-id -x -d 'author of the note (default: the server decides, usually you)'
complete -c clinic -n '__clinic_at_any \'clinic leads notes add\'' -l set -x -d 'with --from: set a field on every record (e.g. user_id=4) (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic conversations messages\'' -l after -x -d 'only messages after this one (catching up)'
complete -c clinic -n '__clinic_at_any \'clinic conversations send-voice\'' -l max-kib -x -d 'refuse a file over N KiB before sending (default 51200; 0: no bound here, the server decides)'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l conversation -x -d 'only this conversation (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l since -x -d 'first print the messages after this one (of the --conversation ones)'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l events -x -a '(__clinic_comma_list created deleted read)' -d 'which events to print, default created'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l timeout -x -d 'stop after this long (exit 0)'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l reconnect-timeout -x -d 'give up after the connection is down this long (default 120; exit 1)'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l checkpoint -r -F -d 'keep the last delivered message id of each conversation in FILE (0600, one tail per file); started again, the tail first delivers what came after (at least once)'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l forward-to -x -d 'POST each event as JSON to URL, signed (https, or http to 127.0.0.1, localhost or [::1]); nothing on stdout'
complete -c clinic -n '__clinic_at_any \'clinic chat tail\'' -l forward-secret -x -d 'the signing secret of --forward-to; prefer CLINIC_FORWARD_SECRET (a command line shows in ps)'
complete -c clinic -n '__clinic_at_any \'clinic form-templates update\'' -l name -x -d 'new name'
complete -c clinic -n '__clinic_at_any \'clinic form-templates update\'' -l description -x -d 'new description'
complete -c clinic -n '__clinic_at_any \'clinic form-templates update\'' -l active -d 'make the template active'
complete -c clinic -n '__clinic_at_any \'clinic form-templates update\'' -l inactive -d 'make the template inactive'
complete -c clinic -n '__clinic_at_any \'clinic ai-reports pdf\'' -s O -l output-file -r -F -d 'where to save the PDF (default ai-report-{id}.pdf; - = stdout)'
complete -c clinic -n '__clinic_at_any \'clinic ai-reports pdf\' \'clinic erasure certificate\'' -l force -d 'overwrite an existing file'
complete -c clinic -n '__clinic_at_any \'clinic erasure list\'' -l status -x -a 'pending_verification verified processing completed expired cancelled failed' -d 'only requests in this status'
complete -c clinic -n '__clinic_at_any \'clinic erasure list\'' -l created-from -x -d 'only requests created on or after this date-time, or from the start of this day (2026-01-31, local time; UTC with --utc)'
complete -c clinic -n '__clinic_at_any \'clinic erasure list\'' -l created-to -x -d 'only requests created on or before this date-time, or up to the end of this day (local time; UTC with --utc)'
complete -c clinic -n '__clinic_at_any \'clinic erasure list\'' -l sort-by -x -a 'created_at verified_at executed_at status' -d 'sort field'
complete -c clinic -n '__clinic_at_any \'clinic erasure list\'' -l sort-order -x -a 'asc desc' -d 'sort direction'
complete -c clinic -n '__clinic_at_any \'clinic erasure create\'' -l customer -x -d 'the customer whose data is to be erased'
complete -c clinic -n '__clinic_at_any \'clinic erasure create\'' -l reason -x -d 'why (request_reason)'
complete -c clinic -n '__clinic_at_any \'clinic erasure create\'' -l set -x -d 'with --from: set a field on every record (e.g. request_reason=...) (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic erasure cancel\'' -l reason -x -d 'why the request is withdrawn (cancellation_reason)'
complete -c clinic -n '__clinic_at_any \'clinic erasure certificate\'' -s O -l output-file -r -F -d 'where to save the PDF (default erasure-certificate-{id}.pdf; - = stdout)'
complete -c clinic -n '__clinic_at_any \'clinic erasure watch\'' -l interval -x -d 'seconds between polls (default 5)'
complete -c clinic -n '__clinic_at_any \'clinic erasure watch\'' -l timeout -x -d 'give up after this long (exit 1; default: wait until a terminal status)'
complete -c clinic -n '__clinic_at_any \'clinic api\'' -s X -l method -x -d 'HTTP method (default GET, or POST with fields)'
complete -c clinic -n '__clinic_at_any \'clinic api\'' -s F -l field -x -d 'typed field (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic api\'' -s f -l raw-field -x -d 'string field (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic api\'' -s H -l header -x -d 'extra header (repeatable)'
complete -c clinic -n '__clinic_at_any \'clinic api\'' -l input -r -F -d 'JSON body from a file (- for stdin)'
complete -c clinic -n '__clinic_at_any \'clinic api\'' -l paginate -d 'follow every page; print one JSON array of the pages\' data'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l port -x -d 'port (0 = any free port)'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l seed -x -d 'seed of the generated data'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l records -x -d 'customers per tenant'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l rate-limit -x -d 'requests per minute per user (0 = off)'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l faults -x -d 'inject faults, e.g. 5xx=0.05,429=0.05,reset=0.02,slow=0.05,lost=0.01,ws-drop=0.1 (lost: done, then the answer is cut off; ws-drop: each second, with that chance, every realtime connection drops)'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l latency -x -d 'milliseconds every API answer waits first, as a network round trip would (default 0): try pacing and --concurrency against a server that is not next door'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l chatter -x -d 'generated patient messages per second, fractions allowed, e.g. 0.5 (default 0 = none); now and then a conversation is also read or one of those messages deleted'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l access-token-ttl -x -d 'lifetime of OAuth access tokens (default 15 days)'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l refresh-token-ttl -x -d 'lifetime of OAuth refresh tokens (default 30 days)'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l erasure-step -x -d 'seconds between two steps of a live data-erasure request (default 30; 0 = frozen)'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l write-profile -x -d 'profile to point at the sandbox; one that points at another sandbox still running is left alone'
complete -c clinic -n '__clinic_at_any \'clinic sandbox start\'' -l no-write-profile -d 'leave the config file alone'
