#!/usr/bin/env bash
# `@parley/client` as a user gets it: packed (`npm pack` in packages/client, which builds it), installed
# into an empty project with nothing else, measured, checked for server dependencies, then the
# README's examples are run there against a real Parley started here (`npm start` on the embedded
# database). Used by .ci/run; PARLEY_CHECK_PORT picks the port (default 45010).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
port=${PARLEY_CHECK_PORT:-45010}
work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill -- "-$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "-- pack"
tarball=$(cd "$root/packages/client" && npm pack --pack-destination "$work" --silent | tail -1)
mkdir "$work/app"
cd "$work/app"
npm init -y >/dev/null
npm install --no-audit --no-fund "$work/$tarball" >/dev/null

echo "-- installed size"
total_kib=$(du -sk node_modules | cut -f1)
client_kib=$(du -sk node_modules/@parley/client | cut -f1)
packages=$(npm ls --all --parseable | tail -n +2 | wc -l)
echo "node_modules: ${total_kib} KiB in ${packages} packages; @parley/client itself: ${client_kib} KiB"
if [ "$client_kib" -ge 1024 ]; then echo "@parley/client weighs 1 MB or more" >&2; exit 1; fi
# The server's dependencies, and the frameworks (optional peers: a user of one never installs them).
for name in fastify pg drizzle-orm @electric-sql/pglite @fastify/swagger @modelcontextprotocol/sdk pino zod \
  ioredis openai tsx ai @langchain/core @langchain/langgraph @openai/agents; do
  if [ -e "node_modules/$name" ]; then echo "installing @parley/client pulled in $name" >&2; exit 1; fi
done

echo "-- a real Parley on 127.0.0.1:$port"
admin_token=check-client-package-admin-token
# setsid: the server (npm, tsx and node) is a process group of its own, whose id is $!, stopped
# whole at the end. `exec` keeps the subshell's pid for setsid.
(cd "$root" && PORT=$port HOST=127.0.0.1 DATA_DIR="$work/data" ADMIN_TOKEN=$admin_token EMBEDDINGS=none \
  exec setsid npm start >"$work/server.log" 2>&1) &
server_pid=$!
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/server.log" >&2; exit 1; fi
  sleep 1
done
curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || { cat "$work/server.log" >&2; exit 1; }
export PARLEY_URL="http://127.0.0.1:$port"
PARLEY_API_KEY=$(curl -fs -X POST "$PARLEY_URL/admin/v1/projects" -H "authorization: Bearer $admin_token" \
  -H 'content-type: application/json' -d '{"name":"client-package-check"}' | node -e \
  'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).apiKey))')
export PARLEY_API_KEY

echo "-- the client alone: create, list, search, stream"
cp "$root"/packages/client/examples/*.mjs .
node quickstart.mjs

echo "-- the adapters, each with its framework"
# The versions this repository tests with (the workspace's and the root's dev dependencies).
frameworks=$(node -e '
  const dev = { ...require(process.argv[1]).devDependencies, ...require(process.argv[2]).devDependencies };
  console.log(["ai", "@langchain/core", "@langchain/langgraph", "@openai/agents"].map((n) => `${n}@${dev[n]}`).join(" "));
' "$root/package.json" "$root/packages/client/package.json")
# shellcheck disable=SC2086
npm install --no-audit --no-fund $frameworks >/dev/null
node ai-sdk-chat-route.mjs
node langgraph-memory.mjs
node openai-agents-session.mjs
echo "-- @parley/client: packed, installed alone and used as documented"
