#!/usr/bin/env bash
# Property-based tests of the REST API against a live server: schemathesis reads the OpenAPI
# schema the project generates and sends every operation generated requests, checking that no
# answer is a server error or breaks the schema (status, content type, headers, body).
#
#   bash scripts/schemathesis_run.sh            # from the repository root, after `make install`
#
# It starts gunicorn on 127.0.0.1 over a fresh SQLite database with a few demo games, issues
# an API token for a throw-away user, runs schemathesis with a bounded number of examples per
# operation and a time limit, and stops the server (also on failure or Ctrl-C).
#
#   SCHEMATHESIS_MAX_TIME=0 SCHEMATHESIS_EXAMPLES=10 bash scripts/schemathesis_run.sh  # as CI
#
# Every operation runs with `--checks all`; scripts/schemathesis.toml states the exemptions
# and why (an illegal draft event is 400 by design, ...). Environment: SCHEMATHESIS_PORT (a
# free one), SCHEMATHESIS_EXAMPLES (20 per operation), SCHEMATHESIS_MAX_TIME (300 s, a fifth
# more for the token operations' run after it; 0: no time budget, each phase once),
# SCHEMATHESIS_DATABASE_URL (a new, empty database; a temporary SQLite file),
# SCHEMATHESIS_GAMES (40 demo games), SCHEMATHESIS_SEED (1).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${VENV:-.venv}
# A free port unless one is given: another server may well be listening on the usual ones.
PORT=${SCHEMATHESIS_PORT:-$("$VENV/bin/python" -c "import socket; s = socket.socket(); \
s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-20}
MAX_TIME=${SCHEMATHESIS_MAX_TIME:-300}
GAMES=${SCHEMATHESIS_GAMES:-40}
SEED=${SCHEMATHESIS_SEED:-1}
# Arguments are passed on to schemathesis (e.g. --include-path /api/v1/uploads/ to run one
# operation while working on it); the token operations' own run is then left out.
EXTRA=("$@")
WORK=$(mktemp -d)
SERVER_PID=""

cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

# Its own database, which also holds its cache (counters, kept answers) and its job queue: a
# REDIS_URL or CELERY_BROKER_URL in the caller's environment would share them with whatever
# else uses that Redis (another run's counters, a worker taking the run's jobs). DEBUG on so
# that no collectstatic is needed (only the API is tested, and a server error is a 500 either
# way); rate limits out of the way: the run sends thousands of requests from one address.
export DATABASE_URL=${SCHEMATHESIS_DATABASE_URL:-sqlite:///$WORK/schemathesis.sqlite3}
unset REDIS_URL CELERY_BROKER_URL
export DEBUG=true LOG_LEVEL=ERROR
export API_THROTTLE_ANON=1000000/hour API_THROTTLE_USER=1000000/hour
export API_THROTTLE_UPLOAD=1000000/hour API_THROTTLE_EXPORT=1000000/hour
export API_THROTTLE_DRAFTS=1000000/hour
# Analyses requested by the run are queued jobs (a worker may run them meanwhile): cheap ones.
export ANALYSIS_REQUESTS_PER_HOUR=1000000 ANALYSIS_SAMPLES=2 ANALYSIS_MAX_SAMPLES=4

echo "schemathesis: database $DATABASE_URL, $GAMES demo games"
"$VENV/bin/python" manage.py migrate --noinput -v 0
# A new database each run: a used one keeps what the last run left (its user's 50 tokens,
# which refuse this run's token, sign-in lockouts, drafts), and the answers would differ.
USED=$("$VENV/bin/python" manage.py shell -v 0 -c \
    "from django.contrib.auth import get_user_model; print(get_user_model().objects.exists())")
if [ "$USED" != False ]; then
    echo "schemathesis: the database already has users: give a new one" >&2
    exit 1
fi
"$VENV/bin/python" manage.py seed_demo --games "$GAMES" --seed "$SEED" --force >/dev/null
TOKEN=$("$VENV/bin/python" manage.py issue_token schemathesis --create-user 2>/dev/null)

# The server's own output (Django logs errors with their tracebacks) goes to server.log. It is
# started as in production (config/gunicorn.conf.py): its request limits, and its own refusals
# (a request line over 8190 bytes, headers too large) in the API's JSON error body, are part
# of what is checked. No job worker: what the run queues needs none to be answered.
GUNICORN_CMD_ARGS="--bind 127.0.0.1:$PORT --workers 2" JOB_WORKERS=0 \
    "$VENV/bin/gunicorn" -c config/gunicorn.conf.py config.wsgi >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
ready=""
for _ in $(seq 1 100); do
    # Ours must still be running (a port taken meanwhile makes gunicorn exit).
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
    if "$VENV/bin/python" -c "import urllib.request, sys; \
sys.exit(urllib.request.urlopen('http://127.0.0.1:$PORT/healthz', timeout=2).status != 200)" \
        2>/dev/null; then
        ready=yes
        break
    fi
    sleep 0.2
done
[ -n "$ready" ] || { echo "schemathesis: the server did not start" >&2; exit 1; }

# The response-time check that --checks all adds (10 s a request unless told) waits as long
# as the request timeout: on a shared machine a neighbour's load, not the API, decided it (a
# 404 took 15 s), and speed is measured by bench/. A request that hangs still fails.
# One worker: with two, hypothesis' lambda-source cache (which calls ast.parse) races between
# the worker threads on Python 3.11 and aborts an operation with "AST constructor recursion
# depth mismatch", an error of the test tool, not of the API.
st() {
    "$VENV/bin/schemathesis" --config-file scripts/schemathesis.toml run \
        "http://127.0.0.1:$PORT/api/v1/schema/?format=json" \
        --checks all \
        --max-examples "$EXAMPLES" \
        --seed "$SEED" \
        --workers 1 \
        --request-timeout 30 \
        --generation-database none \
        --max-response-time 30 \
        "$@"
}
# A time budget is shared out between schemathesis' phases (the coverage phase's 3,000-odd
# boundary cases get a third, and took 75 s to 370 s here as the machine was quiet or busy)
# and fuzzing and stateful repeat until it is spent: what a run sends depends on the machine's
# speed and load. Without one (SCHEMATHESIS_MAX_TIME=0) each phase runs once, bounded by the
# examples, and what a run sends no longer depends on the machine (a little on what varies in
# the answers, which schemathesis learns from: times, keys, the port; two runs of seed 1 sent
# 4,100 and 4,109 cases).
TIME=()
[ "$MAX_TIME" -eq 0 ] || TIME=(--max-time "$MAX_TIME")
TOKEN_TIME=()
[ "$MAX_TIME" -eq 0 ] || TOKEN_TIME=(--max-time $((MAX_TIME / 5)))
# Every operation, all checks, no allowlist. The token endpoints' POST and DELETE give a new
# key to, or revoke, the very token a run authenticates with (a revoked id is a guess away), so
# they run last, on a token of their own (their answers are checked the same; nothing runs
# after them that the token would need).
LAST_OPS=(auth_token_create auth_token_destroy auth_tokens_destroy)
TOKENS=() SKIP=()
for op in "${LAST_OPS[@]}"; do
    TOKENS+=(--include-operation-id "$op")
    SKIP+=(--exclude-operation-id "$op")
done
status=0
st "${TIME[@]}" --header "Authorization: Token $TOKEN" "${SKIP[@]}" \
    "${EXTRA[@]}" || status=$?
if [ ${#EXTRA[@]} -eq 0 ]; then
    LAST=$("$VENV/bin/python" manage.py issue_token schemathesis-tokens --create-user 2>/dev/null)
    st "${TOKEN_TIME[@]}" --header "Authorization: Token $LAST" "${TOKENS[@]}" \
        || status=$?
fi

if grep -q "Traceback" "$WORK/server.log"; then
    echo "schemathesis: the server logged errors:" >&2
    cat "$WORK/server.log" >&2
    status=1
fi
exit "$status"
