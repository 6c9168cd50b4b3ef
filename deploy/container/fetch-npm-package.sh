#!/bin/sh
# Used by the Containerfile: fetches one package from the npm registry, refuses it unless its sha512
# matches the pinned one (the registry's "integrity", base64), and unpacks it into <dir>.
#   fetch-npm-package <name> <version> <sha512-base64> <dir>
set -eu
name="$1" version="$2" sha512="$3" dest="$4"
tarball="$(mktemp)"
trap 'rm -f "$tarball"' EXIT
ca=""
[ -f /run/secrets/ca-bundle ] && ca="--cacert /run/secrets/ca-bundle"
# shellcheck disable=SC2086 # $ca is empty or two words
curl -fsSL --retry 3 --max-time 600 $ca -o "$tarball" "https://registry.npmjs.org/$name/-/$name-$version.tgz"
actual="$(sha512sum "$tarball" | cut -d' ' -f1)"
expected="$(printf '%s' "$sha512" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
if [ "$actual" != "$expected" ]; then
  echo "$name@$version: the download does not match the pinned sha512" >&2
  exit 1
fi
mkdir -p "$dest"
tar -xzf "$tarball" -C "$dest" --strip-components=1 --no-same-owner
