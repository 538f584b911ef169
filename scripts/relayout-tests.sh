#!/usr/bin/env bash
# Moves test/unit and test/e2e into folders by area and noun (test/unit/<area>/<noun>.test.ts), with git mv, and fixes
# what points at the moved files: relative imports and URLs inside them, imports of the unit helpers (which move to
# test/helpers), and every path written out in docs, README, scripts, bin, src comments and the tests themselves.
# Run once, from a clean checkout, after the branches that edit tests are merged: bash scripts/relayout-tests.sh
# Test files missing here are skipped with a note; test files not in the table are listed at the end (add them, rerun).
set -euo pipefail
cd "$(dirname "$0")/.."

# old path (under test/) → new path (under test/). Areas: http, auth, bulk, chat, cli, config, doctor, errors, core,
# output, pagination, secrets, docs, commands (one file per noun); sandbox (test/sandbox) is already separate.
MOVES='
unit/api-answer-encoding.test.ts      unit/http/answer-encoding.test.ts
unit/http-client.test.ts              unit/http/client.test.ts
unit/http-deadlines.test.ts           unit/http/deadlines.test.ts
unit/http-retries.test.ts             unit/http/retries.test.ts
unit/oauth-fetch.test.ts              unit/http/oauth-fetch.test.ts
unit/rate-budget.test.ts              unit/http/rate-budget.test.ts
unit/request-signal.test.ts           unit/http/request-signal.test.ts
unit/request-url.test.ts              unit/http/request-url.test.ts
unit/retry-policy.test.ts             unit/http/retry-policy.test.ts
unit/paginate.test.ts                 unit/pagination/paginate.test.ts
unit/paginate-hostile.test.ts         unit/pagination/hostile-pages.test.ts
unit/export-guard.test.ts             unit/pagination/export-guard.test.ts
unit/id-set.test.ts                   unit/pagination/id-set.test.ts
unit/authorization-server.test.ts     unit/auth/authorization-server.test.ts
unit/browser.test.ts                  unit/auth/browser.test.ts
unit/credential-stores.test.ts        unit/auth/credential-stores.test.ts
unit/loopback.test.ts                 unit/auth/loopback.test.ts
unit/session.test.ts                  unit/auth/session.test.ts
unit/session-refresh.test.ts          unit/auth/session-refresh.test.ts
unit/sign-in-binding.test.ts          unit/auth/sign-in-binding.test.ts
unit/bulk-journal.test.ts             unit/bulk/journal.test.ts
unit/bulk-passes.test.ts              unit/bulk/passes.test.ts
unit/bulk-records.test.ts             unit/bulk/records.test.ts
unit/endpoint-requests.test.ts        unit/bulk/endpoint-requests.test.ts
unit/chat-lines.test.ts               unit/chat/lines.test.ts
unit/chat-order.test.ts               unit/chat/order.test.ts
unit/chat-tail-backpressure.test.ts   unit/chat/backpressure.test.ts
unit/exactly-once.test.ts             unit/chat/exactly-once.test.ts
unit/realtime-clear-text.test.ts      unit/chat/realtime-clear-text.test.ts
unit/realtime-message-cap.test.ts     unit/chat/realtime-message-cap.test.ts
unit/body-input.test.ts               unit/cli/body-input.test.ts
unit/command-options.test.ts          unit/cli/command-options.test.ts
unit/confirmations.test.ts            unit/cli/confirmations.test.ts
unit/context-http.test.ts             unit/cli/context-http.test.ts
unit/help-declarations.test.ts        unit/cli/help-declarations.test.ts
unit/io.test.ts                       unit/cli/io.test.ts
unit/parse-args.test.ts               unit/cli/parse-args.test.ts
unit/config-file.test.ts              unit/config/file.test.ts
unit/config-names.test.ts             unit/config/names.test.ts
unit/profile-overrides.test.ts        unit/config/profile-overrides.test.ts
unit/settings.test.ts                 unit/config/settings.test.ts
unit/doctor-answers.test.ts           unit/doctor/answers.test.ts
unit/doctor-checks.test.ts            unit/doctor/checks.test.ts
unit/doctor-output.test.ts            unit/doctor/output.test.ts
unit/doctor-probe-bounds.test.ts      unit/doctor/probe-bounds.test.ts
unit/keychain-probe.test.ts           unit/doctor/keychain-probe.test.ts
unit/error-shapes.test.ts             unit/errors/shapes.test.ts
unit/clock.test.ts                    unit/core/clock.test.ts
unit/layers.test.ts                   unit/core/layers.test.ts
unit/temp-folders.test.ts             unit/core/temp-folders.test.ts
unit/csv.test.ts                      unit/output/csv.test.ts
unit/hostile-text.test.ts             unit/output/hostile-text.test.ts
unit/hostile-values.test.ts           unit/output/hostile-values.test.ts
unit/output-formats.test.ts           unit/output/formats.test.ts
unit/sanitize.test.ts                 unit/output/sanitize.test.ts
unit/redact.test.ts                   unit/secrets/redact.test.ts
unit/secret-registry.test.ts          unit/secrets/registry.test.ts
unit/commands-in-process.test.ts      unit/commands/customers.test.ts
unit/erasure-in-process.test.ts       unit/commands/erasure.test.ts
unit/nouns-in-process.test.ts         unit/commands/nouns.test.ts
unit/fake-transport.test.ts           unit/http/fake-transport.test.ts
unit/declare.test.ts                  unit/cli/declare.test.ts
unit/typed-declarations.test.ts       unit/cli/typed-declarations.test.ts
unit/one-output-path.test.ts          unit/output/one-path.test.ts
unit/output-paths.test.ts             unit/output/paths.test.ts
unit/__snapshots__/output-paths.test.ts.snap unit/output/__snapshots__/paths.test.ts.snap
unit/mock-api.ts                      helpers/mock-api.ts
unit/fake-clock.ts                    helpers/fake-clock.ts
unit/sink.ts                          helpers/sink.ts
e2e/bad-answers.test.ts               e2e/http/bad-answers.test.ts
e2e/hostile-request-url.test.ts       e2e/http/hostile-request-url.test.ts
e2e/changing-collection.test.ts       e2e/pagination/changing-collection.test.ts
e2e/hostile-pagination.test.ts        e2e/pagination/hostile-pages.test.ts
e2e/auth-config.test.ts               e2e/auth/token-and-config.test.ts
e2e/hostile-oauth-answers.test.ts     e2e/auth/hostile-oauth-answers.test.ts
e2e/login.test.ts                     e2e/auth/login.test.ts
e2e/login-chromium.test.ts            e2e/auth/login-chromium.test.ts
e2e/sign-in-binding.test.ts           e2e/auth/sign-in-binding.test.ts
e2e/bulk.test.ts                      e2e/bulk/runs.test.ts
e2e/bulk-inputs.test.ts               e2e/bulk/inputs.test.ts
e2e/bulk-names.test.ts                e2e/bulk/names.test.ts
e2e/chat-tail.test.ts                 e2e/chat/tail.test.ts
e2e/chat-tail-order.test.ts           e2e/chat/tail-order.test.ts
e2e/realtime-clear-text.test.ts       e2e/chat/realtime-clear-text.test.ts
e2e/bad-input.test.ts                 e2e/cli/bad-input.test.ts
e2e/startup.test.ts                   e2e/cli/startup.test.ts
e2e/config-names.test.ts              e2e/config/names.test.ts
e2e/config-writers.test.ts            e2e/config/writers.test.ts
e2e/profile-overrides.test.ts         e2e/config/profile-overrides.test.ts
e2e/doctor.test.ts                    e2e/doctor/doctor.test.ts
e2e/hostile-values.test.ts            e2e/output/hostile-values.test.ts
e2e/echoed-secrets.test.ts            e2e/secrets/echoed-secrets.test.ts
e2e/secrets.test.ts                   e2e/secrets/debug-runs.test.ts
e2e/readme-recipes.test.ts            e2e/docs/readme-recipes.test.ts
e2e/customers.test.ts                 e2e/commands/customers.test.ts
e2e/erasure.test.ts                   e2e/commands/erasure.test.ts
e2e/resources.test.ts                 e2e/commands/resources.test.ts
e2e/sandbox-start.test.ts             e2e/commands/sandbox.test.ts
e2e/tenants-api.test.ts               e2e/commands/tenants-api.test.ts
'

moved=()
renames=''
while read -r from to; do
  [ -z "$from" ] && continue
  if [ ! -e "test/$from" ]; then
    echo "relayout: test/$from is gone, skipped" >&2
    continue
  fi
  mkdir -p "test/$(dirname "$to")"
  git mv "test/$from" "test/$to"
  moved+=("$to")
  renames+="$from $to"$'\n'
done <<<"$MOVES"

# Paths written out anywhere (docs, README, scripts, bin, src comments, tests): test/unit/x.test.ts →
# test/unit/area/x.test.ts, never inside a longer name. Text files only: no node_modules, dist or lock file.
mapfile -t TEXT_FILES < <(git ls-files -- '*.ts' '*.mjs' '*.js' '*.md' '*.json' '*.sh' '.ci/*' 'bin/*' |
  grep -v -e '^package-lock.json$' -e '^scripts/relayout-tests.sh$' | sort -u)
RENAMES="$renames" perl -pi -e '
  BEGIN { for (split /\n/, $ENV{RENAMES}) { my ($f, $t) = split / /; push @r, [qr{(?<![\w./-])test/\Q$f\E(?![\w.-])}, "test/$t"] } }
  for my $r (@r) { s/$r->[0]/$r->[1]/g }
' "${TEXT_FILES[@]}"

# Inside a moved file: the same targets, one or two folders further up. The patterns name what tests import (src,
# dist, bin, package.json, README.md, the repository root, test/helpers, the unit helpers), so test data that looks
# like a path (request-url's '../admin', layers' '../x/a.js') is left alone.
for to in "${moved[@]}"; do
  case "$to" in helpers/*) continue ;; esac
  file="test/$to"
  extra=$(dirname "$to" | tr -cd / | sed 's#/#../#g') # unit/http → '../', unit/commands/x → '../../'
  [ -z "$extra" ] && continue
  EXTRA="$extra" perl -pi -e '
    my $up = $ENV{EXTRA};
    s{((?:from |import\(|import |new URL\()\x27)((?:\.\./)+)(src/|dist/|bin/|helpers/|package\.json\x27|README\.md\x27|\.\.\x27)}{$1$up$2$3}g;
    s{((?:from |import\(|import )\x27)\./(mock-api|fake-clock|sink)\.js\x27}{$1$up../helpers/$2.js\x27}g;
  ' "$file"
done

# The unit helpers now live in test/helpers: whoever imported them from test/unit.
for file in $(git ls-files 'test/**/*.ts' 'test/*.ts'); do
  if [[ "$file" == test/helpers/* ]]; then
    perl -pi -e 's{\x27\.\./unit/(mock-api|fake-clock|sink)\.js\x27}{\x27./$1.js\x27}g' "$file"
  else
    perl -pi -e 's{\x27\.\./unit/(mock-api|fake-clock|sink)\.js\x27}{\x27../helpers/$1.js\x27}g' "$file"
  fi
done

# Lines that grew past the width (longer import paths) and tables whose cells changed width.
npx prettier --write --log-level warn docs README.md test

left=$(git ls-files 'test/unit/*.ts' 'test/e2e/*.ts' | grep -E '^test/(unit|e2e)/[^/]+$' || true)
if [ -n "$left" ]; then
  echo "relayout: not moved (add them to MOVES in scripts/relayout-tests.sh):" >&2
  echo "$left" >&2
fi
echo "relayout: ${#moved[@]} files moved; now run npx tsc --noEmit, npx eslint test, and the tests"
