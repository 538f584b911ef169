# Completes one command line in a real interactive zsh (driven through zsh/zpty) with compinit and the _clinic
# function from $1's directory, and prints the candidates the completion system offered, one per line.
# Usage: zsh -f zsh-complete.zsh COMPLETIONS_DIR 'clinic erasure list --status '
# compadd is wrapped to record what each call would add (matching against the typed word done by zsh itself); the
# completion functions that run are compsys's and the generated _clinic.
zmodload zsh/zpty || exit 3
dir=$1 line=$2
out=$(mktemp -d) || exit 3
trap 'zpty -d complete 2>/dev/null; rm -rf -- $out' EXIT

cat >$out/init.zsh <<INIT
PS1='' PROMPT='' RPROMPT=''
unsetopt zle_bracketed_paste 2>/dev/null
fpath=(${(q)dir} \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
bindkey '^I' complete-word
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "\$@"
    return
  fi
  local -a __found
  builtin compadd -O __found "\$@"
  (( \$#__found )) && print -rl -- "\${__found[@]}" >>${(q)out}/matches
  builtin compadd "\$@"
}
_complete_done() { : >${(q)out}/done }
comppostfuncs=(_complete_done)
: >${(q)out}/ready
INIT

zpty complete zsh -f -i
zpty -w complete "source ${(q)out}/init.zsh"
zmodload zsh/zselect
for i in {1..500}; do
  [[ -e $out/ready ]] && break
  zpty -rt complete junk 2>/dev/null || zselect -t 2
done
[[ -e $out/ready ]] || { print -u2 'zsh did not start'; exit 4 }
zpty -w -n complete "$line"$'\t'
for i in {1..1500}; do
  [[ -e $out/done ]] && break
  zpty -rt complete junk 2>/dev/null || zselect -t 2
done
[[ -e $out/done ]] || { print -u2 'zsh did not complete'; exit 5 }
[[ -e $out/matches ]] && sort -u $out/matches
exit 0
