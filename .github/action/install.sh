#!/usr/bin/env bash
# Installs skillc for the GitHub Action (action.yml), and for anyone who
# wants the same on another CI. Two steps, so the Action can cache between
# them:
#
#   install.sh resolve   decide what to install; prints kind, ref, version,
#                        dir and key (name=value lines, to $GITHUB_OUTPUT
#                        when set, else stdout)
#   install.sh install   install it into dir
#
# What is installed is SKILLC_REF (the Action passes its version input, else
# its own ref, github.action_ref), never "latest" by default:
#   - a release tag, vMAJOR.MINOR.PATCH (with an optional -prerelease):
#     the release archive for this OS and architecture is downloaded from
#     the GitHub release of that tag, checked against the release's
#     checksums file (SHA-256), and unpacked (kind=release);
#   - any other ref, a branch or a commit: go install MODULE/cmd/...@REF
#     (kind=go; needs Go);
#   - no ref at all (a local action, uses: ./): go install from the
#     action's own source, SKILLC_SOURCE (kind=source; needs Go).
#
# Settings (environment):
#   SKILLC_REF          the version to install (see above)
#   SKILLC_REPO         owner/name of the releases (default skillc/skillc)
#   SKILLC_RELEASE_URL  base of the download URLs (default
#                       $GITHUB_SERVER_URL/$SKILLC_REPO/releases/download);
#                       a file:// URL reads a local folder, as the release
#                       check does with a snapshot build
#   SKILLC_DIR          where the programs go (default
#                       $RUNNER_TOOL_CACHE/skillc/<version>/<arch>)
#   SKILLC_OS, SKILLC_ARCH  the platform, as GoReleaser names it (default:
#                       from RUNNER_OS and RUNNER_ARCH, else uname)
#   SKILLC_SOURCE       the source folder for kind=source
set -euo pipefail

module=github.com/skillc/skillc
repo=${SKILLC_REPO:-skillc/skillc}
ref=${SKILLC_REF:-}

die() {
  echo "::error title=skillc::$*" >&2
  exit 2
}

platform() {
  local os=${SKILLC_OS:-} arch=${SKILLC_ARCH:-}
  if [ -z "$os" ]; then
    case "${RUNNER_OS:-$(uname -s)}" in
      Linux) os=linux ;;
      macOS | Darwin) os=darwin ;;
      Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
      *) die "no skillc release for the OS ${RUNNER_OS:-$(uname -s)}: build it with go install $module/cmd/...@$ref" ;;
    esac
  fi
  if [ -z "$arch" ]; then
    case "${RUNNER_ARCH:-$(uname -m)}" in
      X64 | x86_64 | amd64) arch=amd64 ;;
      ARM64 | arm64 | aarch64) arch=arm64 ;;
      *) die "no skillc release for the architecture ${RUNNER_ARCH:-$(uname -m)}: build it with go install $module/cmd/...@$ref" ;;
    esac
  fi
  echo "$os $arch"
}

is_release_tag() {
  [[ $1 =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$ ]]
}

resolve() {
  local kind version os arch dir p
  p=$(platform)
  read -r os arch <<<"$p"
  if [ -z "$ref" ]; then
    kind=source version=source
  elif is_release_tag "$ref"; then
    kind=release version=${ref#v}
  else
    kind=go version=$ref
  fi
  dir=${SKILLC_DIR:-${RUNNER_TOOL_CACHE:-${TMPDIR:-/tmp}}/skillc/${version//\//-}/$arch}
  outputs() {
    echo "kind=$kind"
    echo "ref=$ref"
    echo "version=$version"
    echo "dir=$dir"
    echo "key=skillc-$os-$arch-$version"
  }
  if [ -n "${GITHUB_OUTPUT:-}" ]; then outputs >>"$GITHUB_OUTPUT"; else outputs; fi
}

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi
}

install_release() {
  local os arch version=${ref#v} dir=$1 p
  p=$(platform)
  read -r os arch <<<"$p"
  local ext=tar.gz
  [ "$os" = windows ] && ext=zip
  local archive="skillc_${version}_${os}_${arch}.$ext" sums="skillc_${version}_checksums.txt"
  local base=${SKILLC_RELEASE_URL:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download}
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  for f in "$sums" "$archive"; do
    if ! curl -fsSL --retry 3 -o "$tmp/$f" "$base/$ref/$f"; then
      die "cannot download $base/$ref/$f: is $ref a release of $repo? For a branch or a commit, use it as the ref (go install builds it)"
    fi
  done
  local want got
  want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/$sums")
  [ -n "$want" ] || die "$sums lists no checksum for $archive"
  got=$(cd "$tmp" && sha256 "$archive" | awk '{ print $1 }')
  [ "$want" = "$got" ] || die "checksum mismatch for $archive: the release lists $want, the download is $got"
  mkdir -p "$dir"
  if [ "$ext" = zip ]; then
    unzip -q -o "$tmp/$archive" -d "$dir"
  else
    tar -xzf "$tmp/$archive" -C "$dir"
  fi
  [ -x "$dir/skillc" ] || [ -f "$dir/skillc.exe" ] || die "$archive holds no skillc program"
  echo "skillc $ref: $archive (sha256 $got) in $dir"
}

install_go() {
  local dir=$1 target=$2
  command -v go >/dev/null || die "Go is not installed, and skillc $ref is no release tag (vMAJOR.MINOR.PATCH) with binaries: add actions/setup-go before this action, or use a release tag"
  mkdir -p "$dir"
  if [ "$target" = source ]; then
    [ -f "${SKILLC_SOURCE:-}/go.mod" ] || die "no skillc source in SKILLC_SOURCE=${SKILLC_SOURCE:-} to build"
    (cd "$SKILLC_SOURCE" && GOBIN=$dir go install ./cmd/...)
  else
    GOBIN=$dir go install "$module/cmd/...@$target"
  fi
  echo "skillc ${ref:-from source}: go install in $dir"
}

case "${1:-}" in
  resolve) resolve ;;
  install)
    dir=${SKILLC_DIR:?SKILLC_DIR: the dir resolve printed}
    if [ -z "$ref" ]; then
      install_go "$dir" source
    elif is_release_tag "$ref"; then
      install_release "$dir"
    else
      install_go "$dir" "$ref"
    fi
    ;;
  *) die "usage: install.sh resolve|install" ;;
esac
