#!/usr/bin/env bash
# Build the Citus extension (distributed PostgreSQL) from source and install it into the local
# PostgreSQL server of a Debian 12 machine. Debian does not package Citus; Citus' own packages
# and Docker image (see docs/scaling.md) are the way to get it outside this repository's CI.
# Nothing happens when Citus is already installed for that server.
#
#   scripts/install-citus.sh [PG_MAJOR]     PG_MAJOR defaults to the newest server installed;
#                                           Citus 13 supports PostgreSQL 15, 16 and 17
#
# Where the source comes from, first match wins:
#   CITUS_SOURCE_TARBALL=path               a source tarball you already have
#   CITUS_SOURCE_CACHE=folder               a folder holding citus-<version>.tar.gz
#   otherwise                               Citus' release archive on GitHub (needs internet)
# CITUS_VERSION picks the release (default 13.2.2, the version the test suite runs on).
#
# Needs root (apt-get for the build dependencies, writing into the server's folders).
# About 3 minutes on 2 cores.
set -euo pipefail

citus_version=${CITUS_VERSION:-13.2.2}
pg_major=${1:-$(ls /usr/lib/postgresql | sort -n | tail -1)}
pg_config=/usr/lib/postgresql/$pg_major/bin/pg_config
release_url=https://github.com/citusdata/citus/archive/refs/tags/v$citus_version.tar.gz

if [[ -f /usr/lib/postgresql/$pg_major/lib/citus.so && -f /usr/share/postgresql/$pg_major/extension/citus.control ]]; then
  echo "Citus is already installed for PostgreSQL $pg_major"
  exit 0
fi

build_dir=$(mktemp -d)
trap 'rm -rf "$build_dir"' EXIT

tarball=${CITUS_SOURCE_TARBALL:-}
if [[ -z $tarball && -n ${CITUS_SOURCE_CACHE:-} && -f $CITUS_SOURCE_CACHE/citus-$citus_version.tar.gz ]]; then
  tarball=$CITUS_SOURCE_CACHE/citus-$citus_version.tar.gz
fi
if [[ -z $tarball ]]; then
  echo "Downloading Citus $citus_version source from $release_url"
  tarball=$build_dir/citus-$citus_version.tar.gz
  if ! curl --fail --silent --show-error --location --max-time 300 -o "$tarball" "$release_url"; then
    cat >&2 <<MSG
install-citus: no Citus $citus_version source available.
  Neither CITUS_SOURCE_TARBALL nor a citus-$citus_version.tar.gz in CITUS_SOURCE_CACHE was given,
  and the download from $release_url failed.
  Do one of:
    - download that file on a machine with internet access, copy it here and run
        CITUS_SOURCE_TARBALL=/path/to/citus-$citus_version.tar.gz scripts/install-citus.sh
    - install Citus from its official packages or use its Docker image (docs/scaling.md), then run
        CITUS_DATABASE_URL=postgres://... npm run test:citus
MSG
    exit 1
  fi
fi
if [[ ! -f $tarball ]]; then
  echo "install-citus: CITUS_SOURCE_TARBALL=$tarball is not a file" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# The server headers plus what Citus' configure checks for (compression, curl for its statistics
# collector, and the libraries PostgreSQL itself was linked with).
apt-get install -y -qq "postgresql-server-dev-$pg_major" gcc make autoconf flex \
  libcurl4-openssl-dev liblz4-dev libzstd-dev libssl-dev libkrb5-dev libselinux1-dev \
  libxslt1-dev libpam0g-dev libreadline-dev zlib1g-dev >/dev/null

mkdir "$build_dir/src"
tar -xzf "$tarball" -C "$build_dir/src" --strip-components=1
cd "$build_dir/src"

# Recent PostgreSQL 15 minor releases declare have_createdb_privilege() themselves, and Citus 13
# still carries its own static copy for 15 in its compatibility header, which then fails to
# compile. Remove Citus' copy only when the server's header already declares the function.
if grep -qs have_createdb_privilege "/usr/include/postgresql/$pg_major/server/commands/dbcommands.h"; then
  perl -0pi -e 's/static inline bool\s+have_createdb_privilege\(void\)\s*\{.*?\n\}\n//s' src/include/pg_version_compat.h
fi

PG_CONFIG=$pg_config ./configure --quiet >/dev/null
if ! make -s -j"$(nproc)" >"$build_dir/build.log" 2>&1; then
  tail -40 "$build_dir/build.log" >&2
  echo "install-citus: the build failed (last lines above)" >&2
  exit 1
fi
make -s install >/dev/null
echo "Citus $(sed -n "s/^default_version = '\(.*\)'/\1/p" src/backend/distributed/citus.control) installed for PostgreSQL $pg_major"
