#!/usr/bin/env bash
# Install the pgvector extension into the PostgreSQL server of a Debian 12 machine.
#
# Debian 12 has no pgvector package for its PostgreSQL, but Debian 13 ("trixie") ships pgvector's
# source package. We fetch that source through apt from the mirror the machine already uses
# (no extra download site), compile it against the local server's headers and install it.
# Nothing happens when the extension is already there, so CI can call this on every run.
#
#   scripts/install-pgvector.sh [PG_MAJOR]    PG_MAJOR defaults to the newest server installed
#
# Needs root (apt-get, writing into the server's lib and extension folders). About 20 s.
set -euo pipefail

pg_major=${1:-$(ls /usr/lib/postgresql | sort -n | tail -1)}
pg_config=/usr/lib/postgresql/$pg_major/bin/pg_config
extension_dir=/usr/share/postgresql/$pg_major/extension

if [[ -f /usr/lib/postgresql/$pg_major/lib/vector.so && -f $extension_dir/vector.control ]]; then
  echo "pgvector is already installed for PostgreSQL $pg_major"
  exit 0
fi

build_dir=$(mktemp -d)
trap 'rm -rf "$build_dir"' EXIT
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq >/dev/null
apt-get install -y -qq "postgresql-server-dev-$pg_major" gcc make >/dev/null

# A private apt configuration that only knows trixie's source index, so the machine's own
# sources stay untouched. The mirror is whichever one the machine is configured with.
mirror=$(awk '$1 == "URIs:" { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
if [[ -z $mirror ]]; then
  mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list)
fi
echo "deb-src $mirror trixie main" >"$build_dir/sources.list"
mkdir -p "$build_dir/lists/partial"
apt_private=(-o "Dir::Etc::sourcelist=$build_dir/sources.list" -o "Dir::Etc::sourceparts=-"
  -o "Dir::State::Lists=$build_dir/lists")
apt-get "${apt_private[@]}" update -qq >/dev/null
if ! (cd "$build_dir" && apt-get "${apt_private[@]}" source --download-only pgvector >/dev/null 2>&1); then
  echo "install-pgvector: could not fetch pgvector's source package from $mirror (trixie)." >&2
  echo "Install pgvector another way (see https://github.com/pgvector/pgvector#installation) and run this again." >&2
  exit 1
fi

tar -xzf "$build_dir"/pgvector_*.orig.tar.gz -C "$build_dir"
cd "$build_dir"/pgvector-*/
# OPTFLAGS="" leaves out -march=native, so the library also runs on a different CPU than the one
# that built it.
make -s PG_CONFIG="$pg_config" OPTFLAGS="" >/dev/null
make -s PG_CONFIG="$pg_config" install >/dev/null
echo "pgvector $(sed -n "s/^default_version = '\(.*\)'/\1/p" vector.control) installed for PostgreSQL $pg_major"
