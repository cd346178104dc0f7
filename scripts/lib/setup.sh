# shellcheck shell=bash
# Sourced by scripts/dev and scripts/test: installs what the stack needs and
# brings up local Redis and Postgres unless REDIS_URL / DATABASE_URL are given.
#
# Exports: PATH (a maintained Node first: the one in .node-version when the machine's is older, see
# scripts/lib/node.sh), PUPPETEER_SKIP_DOWNLOAD, CHROMIUM_PATH, REDIS_URL, DATABASE_URL.
# Defines setup_stop_services (also installed as the EXIT trap), which stops only
# the embedded servers this shell started: never ones passed in by URL, nor ones
# already running (left by an earlier run, or shared with a concurrent one).
#
# Knobs: EMBEDDED_REDIS_PORT (6390), EMBEDDED_PG_PORT (5440),
# EMBEDDED_PG_DIR (the cluster's data directory; default .data/postgres),
# RENDER_KEEP_SERVICES=1 (leave embedded servers running on exit: faster reruns).
#
# Run as root, Postgres runs as the postgres OS user. When that user cannot enter
# the checkout (e.g. a clone in root's 0700 home), the Postgres binaries are copied
# and the cluster kept (unless EMBEDDED_PG_DIR is given) under
# /var/lib/render-pg/<hash of the checkout's path>; see
# packages/db/src/embedded-postgres.cli.ts.

set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="$REPO_ROOT/.data"
cd "$REPO_ROOT"
mkdir -p "$DATA_DIR"

export PUPPETEER_SKIP_DOWNLOAD=true
export EMBEDDED_REDIS_PORT="${EMBEDDED_REDIS_PORT:-6390}"
export EMBEDDED_PG_PORT="${EMBEDDED_PG_PORT:-5440}"
# EMBEDDED_PG_DIR stays unset unless given: the CLI picks the default (see above).

SETUP_STARTED_REDIS=0
SETUP_STARTED_PG=0

if [[ -t 2 ]]; then SETUP_TAG=$'\033[2m[setup]\033[0m'; else SETUP_TAG='[setup]'; fi
setup_log() { printf '%s %s\n' "$SETUP_TAG" "$*" >&2; }
setup_die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

as_root() {
	if [[ "$(id -u)" == 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		setup_die "need root to run: $* (no sudo available)"
	fi
}

SETUP_APT_UPDATED=0
apt_install() {
	command -v apt-get >/dev/null 2>&1 || setup_die "apt-get not found; install these yourself: $*"
	setup_log "installing $* (apt)"
	if [[ "$SETUP_APT_UPDATED" == 0 ]]; then
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
		SETUP_APT_UPDATED=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# --- a. Node, pnpm and node_modules -------------------------------------------

# shellcheck source=SCRIPTDIR/node.sh
source "$REPO_ROOT/scripts/lib/node.sh"

ensure_pnpm() {
	command -v pnpm >/dev/null 2>&1 && return
	setup_log "installing pnpm@10 (npm -g)"
	if [[ "$(id -u)" == 0 ]] || [[ -w "$(npm prefix -g)/lib" ]]; then
		npm install -g --silent pnpm@10
	elif command -v sudo >/dev/null 2>&1; then
		sudo npm install -g --silent pnpm@10
	else
		# No way to write the global prefix: install per user instead.
		npm install -g --silent --prefix "$HOME/.local" pnpm@10
		export PATH="$HOME/.local/bin:$PATH"
	fi
	command -v pnpm >/dev/null 2>&1 || setup_die "pnpm installed but not on PATH"
}

# Everything that can change what `pnpm install` produces, plus the Node
# version (native addons are built per ABI).
deps_hash() {
	{
		node --version
		cat pnpm-lock.yaml pnpm-workspace.yaml .npmrc package.json 2>/dev/null
		for f in apps/*/package.json services/*/package.json packages/*/package.json bench/package.json; do
			if [[ -f "$f" ]]; then printf '%s\n' "$f" && cat "$f"; fi
		done
	} | sha256sum | cut -d' ' -f1
}

ensure_node_modules() {
	local want have=""
	want="$(deps_hash)"
	[[ -f node_modules/.setup-hash ]] && have="$(cat node_modules/.setup-hash)"
	if [[ "$want" == "$have" ]]; then
		return
	fi
	setup_log "pnpm install --frozen-lockfile"
	pnpm install --frozen-lockfile --reporter=append-only >&2
	printf '%s\n' "$want" >node_modules/.setup-hash
}

# --- b. Chromium and fonts ----------------------------------------------------

# Fonts every render relies on (README.md, "Fonts"): Liberation (metric-compatible Arial, Times New Roman,
# Courier New: Chromium's default families), Noto for Arabic, Hebrew, Indic, Thai and the other non-CJK
# scripts, Noto CJK (Chinese, Japanese, Korean), Noto Color Emoji, and DejaVu (code's symbol fallback).
# About 150 MB installed (Noto CJK 91, Noto core 43, emoji 11, DejaVu and Liberation 7), 80 MB to download.
# The worker points Chromium at infra/fonts/fonts.conf itself, so nothing is written to /etc/fonts.
RENDER_FONT_PACKAGES=(fontconfig fonts-dejavu-core fonts-liberation2 fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji)

ensure_chromium() {
	if [[ -n "${CHROMIUM_PATH:-}" ]]; then
		[[ -x "$CHROMIUM_PATH" ]] || setup_die "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable"
		return
	fi
	if [[ ! -x /usr/bin/chromium-headless-shell ]]; then
		apt_install chromium chromium-headless-shell "${RENDER_FONT_PACKAGES[@]}"
	fi
	if [[ -x /usr/bin/chromium-headless-shell ]]; then
		export CHROMIUM_PATH=/usr/bin/chromium-headless-shell
	elif [[ -x /usr/bin/chromium ]]; then
		export CHROMIUM_PATH=/usr/bin/chromium
	else
		setup_die "no Chromium found after installing it"
	fi
}

# ffmpeg encodes screenshot videos (mp4, webm, gif): Debian's package, a child process of the worker
# (FFMPEG_PATH). Checked the way Chromium is: an FFMPEG_PATH given must be an executable, else /usr/bin/ffmpeg
# is installed when missing. About 100 MB with its codec libraries (x264, libvpx).
ensure_ffmpeg() {
	if [[ -n "${FFMPEG_PATH:-}" ]]; then
		[[ -x "$FFMPEG_PATH" ]] || setup_die "FFMPEG_PATH=$FFMPEG_PATH is not an executable"
		return
	fi
	[[ -x /usr/bin/ffmpeg ]] || apt_install ffmpeg
	[[ -x /usr/bin/ffmpeg ]] || setup_die "no ffmpeg found after installing it"
	export FFMPEG_PATH=/usr/bin/ffmpeg
}

# Also on machines whose Chromium was installed before these fonts were needed.
ensure_fonts() {
	command -v dpkg-query >/dev/null 2>&1 || {
		setup_log "no dpkg: install the fonts in README.md (Fonts) yourself, or CJK, Indic and Thai text renders as boxes"
		return
	}
	local pkg missing=()
	for pkg in "${RENDER_FONT_PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q ' installed$' || missing+=("$pkg")
	done
	[[ ${#missing[@]} -gt 0 ]] || return 0
	if [[ "$(id -u)" != 0 ]] && ! command -v sudo >/dev/null 2>&1; then
		setup_log "warning: fonts missing (${missing[*]}); without root they cannot be installed, and some scripts render as boxes"
		return 0
	fi
	apt_install "${missing[@]}"
}

# --- c. Redis -----------------------------------------------------------------

# PING over bash's /dev/tcp so this needs neither redis-cli nor a Node start-up.
redis_ping() {
	local port="$1" reply=""
	{
		exec 3<>"/dev/tcp/127.0.0.1/$port"
		printf 'PING\r\n' >&3
		IFS= read -r -t 2 reply <&3 || true
		exec 3<&-
	} 2>/dev/null || return 1
	[[ "$reply" == "+PONG"* ]]
}

ensure_redis() {
	if [[ -n "${REDIS_URL:-}" ]]; then
		setup_log "Redis: using REDIS_URL"
		return
	fi
	local port="$EMBEDDED_REDIS_PORT"
	export REDIS_URL="redis://127.0.0.1:$port"
	if redis_ping "$port"; then
		setup_log "Redis: reusing the server on port $port"
		return
	fi
	command -v redis-server >/dev/null 2>&1 || apt_install redis-server
	# Debian's package starts a system instance on 6379; ours is separate.
	mkdir -p "$DATA_DIR/redis"
	setup_log "Redis: starting on 127.0.0.1:$port"
	redis-server --port "$port" --bind 127.0.0.1 --dir "$DATA_DIR/redis" \
		--save "" --appendonly no --daemonize yes \
		--pidfile "$DATA_DIR/redis.pid" --logfile "$DATA_DIR/redis.log"
	local i
	for ((i = 0; i < 50; i++)); do
		if redis_ping "$port"; then
			SETUP_STARTED_REDIS=1
			return
		fi
		sleep 0.1
	done
	tail -n 20 "$DATA_DIR/redis.log" >&2 || true
	setup_die "embedded Redis did not come up on port $port"
}

stop_redis() {
	local pid
	pid="$(cat "$DATA_DIR/redis.pid" 2>/dev/null)" || return 0
	[[ -n "$pid" ]] && kill "$pid" 2>/dev/null || return 0
	local i
	for ((i = 0; i < 50; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
}

# --- d. Postgres --------------------------------------------------------------

pg_cli() {
	(cd "$REPO_ROOT/packages/db" && "$REPO_ROOT/node_modules/.bin/tsx" src/embedded-postgres.cli.ts "$@")
}

port_open() { { exec 3<>"/dev/tcp/127.0.0.1/$1" && exec 3<&-; } 2>/dev/null; }

ensure_postgres() {
	if [[ -n "${DATABASE_URL:-}" ]]; then
		setup_log "Postgres: using DATABASE_URL"
		return
	fi
	local url was_up=0
	# The CLI reuses a running server; remember whether one was already up so we
	# only ever stop what this shell started.
	port_open "$EMBEDDED_PG_PORT" && was_up=1
	url="$(pg_cli start)" || setup_die "embedded Postgres failed to start (see above; or set DATABASE_URL)"
	export DATABASE_URL="$url"
	[[ "$was_up" == 1 ]] || SETUP_STARTED_PG=1
}

stop_postgres() { pg_cli stop || true; }

setup_stop_services() {
	if [[ "${RENDER_KEEP_SERVICES:-0}" == 1 ]]; then
		return 0
	fi
	if [[ "$SETUP_STARTED_PG" == 1 ]]; then
		setup_log "stopping embedded Postgres"
		stop_postgres
		SETUP_STARTED_PG=0
	fi
	if [[ "$SETUP_STARTED_REDIS" == 1 ]]; then
		setup_log "stopping embedded Redis"
		stop_redis
		SETUP_STARTED_REDIS=0
	fi
}

# --- run ----------------------------------------------------------------------

# Stops what we started even when a later step fails; callers that set their own
# EXIT trap must call setup_stop_services from it.
trap setup_stop_services EXIT

# --- the manifest checks' tools (infra/k8s tests) -----------------------------
# promtool (Debian's prometheus package) checks and unit-tests the alert rules; kubectl renders the
# kustomizations (the machine image ships it; its apt source has it too).
ensure_manifest_tools() {
	local missing=()
	command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
	command -v kubectl >/dev/null 2>&1 || missing+=(kubectl)
	((${#missing[@]} == 0)) || apt_install "${missing[@]}"
}

ensure_node
ensure_pnpm
ensure_node_modules
ensure_manifest_tools
ensure_chromium
ensure_ffmpeg
ensure_fonts
ensure_redis
ensure_postgres
setup_log "running migrations"
pnpm --silent --filter @render/db migrate >&2 || setup_die "migrations failed"
setup_log "seeding starter templates"
pnpm --silent --filter @render/templates seed >&2 || setup_die "seeding starter templates failed"
