#!/usr/bin/env bash
# Smoke test of the Gantry image: starts it on 127.0.0.1 with a fresh data volume, waits for
# /api/ready and the HEALTHCHECK, signs in, creates the demo project, runs its bash, python and
# Ansible templates, then starts the same image as a remote runner (`gantry runner start`, as the
# runner dialog shows it) and runs a task there. Everything it starts is removed at the end; every
# wait is bounded. Needs podman (or CONTAINER_ENGINE=docker), curl and jq.
#   deploy/container/smoke-test.sh [image]        (default gantry/gantry:latest)
#   CONTAINER_ENGINE_OPTS="--runtime /usr/sbin/runc" deploy/container/smoke-test.sh
#   SMOKE_DB_URL=postgres://user:pw@127.0.0.1:5432/empty_db deploy/container/smoke-test.sh   (or mysql://...)
set -euo pipefail

image="${1:-gantry/gantry:latest}"
read -r -a engine <<<"${CONTAINER_ENGINE:-podman} ${CONTAINER_ENGINE_OPTS:-}"
name="gantry-smoke-$$"
password="smoke-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
registration_token="reg-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
work="$(mktemp -d)"
jar="$work/cookies"

cleanup() {
  "${engine[@]}" rm -f -t 5 "$name-runner" "$name" >/dev/null 2>&1 || true
  "${engine[@]}" volume rm -f "$name-data" "$name-runner" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  echo "--- server log (last 40 lines)" >&2
  "${engine[@]}" logs --tail 40 "$name" >&2 2>&1 || true
  if "${engine[@]}" container exists "$name-runner" 2>/dev/null; then
    echo "--- runner log (last 40 lines)" >&2
    "${engine[@]}" logs --tail 40 "$name-runner" >&2 2>&1 || true
  fi
  exit 1
}

# A port nothing listens on: the kernel picks one, and it is free again once this process exits.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"

api() { # METHOD PATH [JSON] -> body on stdout; fails on any non-2xx answer
  local method="$1" path="$2" body="${3:-}" status
  local args=(-sS --max-time 20 -b "$jar" -c "$jar" -o "$work/body" -w '%{http_code}' -X "$method" "$base$path")
  # The body goes through stdin: it may hold the admin password, which argv would show to every user of the host.
  [ -n "$body" ] && args+=(-H 'content-type: application/json' --data-binary @-)
  status="$(printf '%s' "$body" | curl "${args[@]}")" || fail "$method $path: no answer"
  [[ "$status" == 2* ]] || fail "$method $path answered $status: $(head -c 300 "$work/body")"
  cat "$work/body"
}

run_task() { # PROJECT TEMPLATE_ID -> the finished task as JSON; fails unless it succeeded
  local project="$1" template="$2" task status
  task="$(api POST "/api/project/$project/tasks" "{\"template_id\": $template}" | jq -r .id)"
  for _ in $(seq 1 120); do
    status="$(api GET "/api/project/$project/tasks/$task" | jq -r .status)"
    case "$status" in
      success) api GET "/api/project/$project/tasks/$task"; return 0 ;;
      error | stopped | rejected)
        api GET "/api/project/$project/tasks/$task/output" | jq -r '.[].output' | tail -20 >&2
        fail "task $task of template $template ended $status" ;;
    esac
    sleep 1
  done
  fail "task $task of template $template did not finish within 120 s (status $status)"
}

# SQLite in the volume unless SMOKE_DB_URL names an empty PostgreSQL or MySQL database.
store=()
case "${SMOKE_DB_URL:-}" in
  "") ;;
  postgres://* | postgresql://*) store=(-e GANTRY_DB_DIALECT=postgres -e GANTRY_DB_URL) ;;
  mysql://*) store=(-e GANTRY_DB_DIALECT=mysql -e GANTRY_DB_URL) ;;
  *) echo "SMOKE_DB_URL must be a postgres:// or mysql:// URL" >&2; exit 2 ;;
esac

started=$SECONDS
echo "== server: $image on $base"
# Secrets reach the containers by name (-e NAME takes the value from this environment), not on the engine's argv.
export GANTRY_ADMIN_PASSWORD="$password" GANTRY_RUNNER_REGISTRATION_TOKEN="$registration_token"
# The database URL too: it may hold the database's password.
if [ -n "${SMOKE_DB_URL:-}" ]; then export GANTRY_DB_URL="$SMOKE_DB_URL"; fi
"${engine[@]}" volume create "$name-data" >/dev/null
"${engine[@]}" run -d --name "$name" --network=host -v "$name-data:/var/lib/gantry" \
  -e GANTRY_HOST=127.0.0.1 -e GANTRY_PORT="$port" -e GANTRY_ADMIN_PASSWORD -e GANTRY_LOG_LEVEL=warn \
  -e GANTRY_RUNNER_REGISTRATION_TOKEN \
  "${store[@]}" "$image" >/dev/null

for i in $(seq 1 90); do
  [ "$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "$base/api/ready")" = 200 ] && break
  [ "$("${engine[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] || fail "the server container exited"
  [ "$i" = 90 ] && fail "/api/ready did not answer 200 within 90 s"
  sleep 1
done
echo "ready after $((SECONDS - started)) s"

[ "$("${engine[@]}" exec "$name" id -u)" = 10001 ] || fail "the server does not run as uid 10001"
if [ "${engine[0]}" = podman ]; then
  "${engine[@]}" healthcheck run "$name" >/dev/null || fail "the HEALTHCHECK does not pass on a ready server"
  echo "HEALTHCHECK passes"
fi

echo "== sign in, demo project"
api POST /api/auth/login "{\"auth\": \"admin\", \"password\": \"$password\"}" >/dev/null
project="$(api POST /api/projects '{"name": "Smoke test", "demo": true}' | jq -r .id)"
templates="$(api GET "/api/project/$project/templates")"

for app in bash python ansible; do
  template="$(jq -r --arg app "$app" 'map(select(.app == $app)) | first | .id' <<<"$templates")"
  [ "$template" != null ] || fail "the demo project has no $app template"
  run_task "$project" "$template" >/dev/null
  echo "$app task: success"
done

echo "== runner mode"
"${engine[@]}" run --rm --network=host "$image" runner start --help | grep -- '--server' >/dev/null || fail "gantry runner start --help prints no usage"
runner="$(api POST "/api/project/$project/runners" '{"name": "smoke-runner", "max_parallel_tasks": 0, "active": true}')"
runner_id="$(jq -r .id <<<"$runner")"
# A remote runner clones its repositories itself; the demo repository stands in for a remote one: it is
# a local path in the server's volume, so it is copied to the same path in the runner's volume first.
"${engine[@]}" run --rm --network=host -v "$name-data:/srv/server-data:ro" -v "$name-runner:/var/lib/gantry" \
  --entrypoint cp "$image" -a /srv/server-data/demo-repositories /var/lib/gantry/ || fail "could not copy the demo repository into the runner's volume"
# Then the runner dialog's container command as it stands (apps/web runner-form.ts, docs/runners.md),
# with the image under test, the host network that reaches the server on 127.0.0.1, and the token
# passed by name instead of by value.
export GANTRY_RUNNER_TOKEN
GANTRY_RUNNER_TOKEN="$(jq -r .token <<<"$runner")"
"${engine[@]}" run -d --network=host --name "$name-runner" --restart unless-stopped -v "$name-runner:/var/lib/gantry" \
  -e GANTRY_RUNNER_SERVER="$base" -e GANTRY_RUNNER_TOKEN "$image" runner start >/dev/null
for i in $(seq 1 30); do
  [ "$(api GET "/api/project/$project/runners" | jq -r --argjson id "$runner_id" '.[] | select(.id == $id) | .touched')" != null ] && break
  [ "$i" = 30 ] && fail "the runner did not call the server within 30 s"
  sleep 1
done
if [ "${engine[0]}" = podman ]; then
  "${engine[@]}" healthcheck run "$name-runner" >/dev/null || fail "the HEALTHCHECK does not pass on a runner"
fi
template="$(jq -r 'map(select(.app == "bash")) | first | .id' <<<"$templates")"
ran_on="$(run_task "$project" "$template" | jq -r .runner_id)"
[ "$ran_on" = "$runner_id" ] || fail "the task ran on runner $ran_on, not on the container runner $runner_id"
echo "bash task on the container runner: success"

# Self-registration as docs/container.md shows it: the token lands in a file in the runner's volume.
"${engine[@]}" run --rm --network=host -v "$name-runner:/var/lib/gantry" \
  -e GANTRY_RUNNER_REGISTRATION_TOKEN="$registration_token" "$image" runner register \
  --server "$base" --name smoke-registered --token-file /var/lib/gantry/runner.token >/dev/null \
  || fail "gantry runner register failed in the image"
api GET /api/runners | jq -e 'any(.[]; .name == "smoke-registered")' >/dev/null || fail "the registered runner is not listed"
echo "runner registration from the image: success"

echo "OK: smoke test passed in $((SECONDS - started)) s"
