#!/usr/bin/env bash
# Drives Parley's MCP endpoint with an MCP client that Parley did not write: the CLI mode of the
# MCP Inspector (@modelcontextprotocol/inspector, fetched by npx on first use). It starts
# `npm start` on a fresh embedded database, lists the tools, calls create_dialogue and search,
# prints each command with its output, and stops the server.
#
#   scripts/mcp-inspector.sh            # everything it made (database, outputs) is removed at the end
#   KEEP=1 scripts/mcp-inspector.sh     # the outputs and the server log are kept in a directory it names
#
# On Node 20, npx would pick the old 0.15 line (the 2.x line declares Node >= 22.19); 2.x's CLI
# mode works on Node 20 despite the engine warning, so the version is pinned here.
set -euo pipefail

INSPECTOR=${INSPECTOR:-@modelcontextprotocol/inspector@2.12.0}
PORT=${PORT:-3917}
KEY=${KEY:-prly_inspector_$(node -e 'process.stdout.write(require("crypto").randomBytes(12).toString("hex"))')}
WORK=$(mktemp -d -t parley-inspector-XXXXXX)
URL="http://127.0.0.1:$PORT/mcp/v1"
cd "$(dirname "$0")/.."

# A process group of its own (npm, tsx, node), so that the whole of it can be stopped at the end:
# npm does not pass SIGTERM on to the server.
PORT=$PORT HOST=127.0.0.1 DATA_DIR="$WORK/data" BOOTSTRAP_API_KEY="$KEY" LOG_LEVEL=warn \
  setsid npm start >"$WORK/server.log" 2>&1 &
SERVER=$!
stop_server() {
  kill -TERM -- "-$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  if [ -n "${KEEP:-}" ]; then
    rm -rf "$WORK/data" "$WORK/home"
    echo "Outputs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap stop_server EXIT

for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null || { cat "$WORK/server.log"; exit 1; }

# The Inspector writes its settings under ~/.mcp-inspector: give it a HOME of its own.
# Without the Authorization header it would start an OAuth flow.
inspector() {
  HOME="$WORK/home" npx -y "$INSPECTOR" --cli "$URL" --transport http \
    --header "Authorization: Bearer $KEY" "$@" 2>"$WORK/inspector.err"
}

step() {
  local name=$1
  shift
  {
    printf '\n$ npx -y %s --cli %s --transport http --header "Authorization: Bearer $KEY"' "$INSPECTOR" "$URL"
    for arg in "$@"; do
      if [[ $arg =~ ^[A-Za-z0-9_/.:=-]+$ ]]; then printf ' %s' "$arg"; else printf " '%s'" "$arg"; fi
    done
    printf '\n'
  } >&2
  inspector "$@" | tee "$WORK/$name.json"
}

step tools-list --method tools/list >/dev/null
echo "(tool names; the full listing is kept with KEEP=1:)"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(r.tools.map((t) => t.name).join("\n"));' "$WORK/tools-list.json"

step create-dialogue --method tools/call --tool-name create_dialogue \
  --tool-arg 'label="Inspector check"' --tool-arg 'tags=["inspector"]' \
  --tool-arg 'messages=[{"role":"user","content":"My parcel to Lisbon is three days late"},{"role":"assistant","content":[{"type":"text","text":"Sorry, let me check the courier."}]}]'

step search --method tools/call --tool-name search \
  --tool-arg 'query="parcel Lisbon late"' --tool-arg 'object="message"'

node -e 'const fs = require("fs");
  const created = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const found = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const id = created.structuredContent.id;
  const hits = found.structuredContent.results.filter((r) => r.item.dialogueId === id).length;
  if (created.isError || found.isError || hits === 0) { console.error("FAILED"); process.exit(1); }
  console.log(`\nOK: created ${id}; search found ${hits} of its messages (mode ${found.structuredContent.mode}).`);' \
  "$WORK/create-dialogue.json" "$WORK/search.json"
