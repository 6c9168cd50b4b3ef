#!/usr/bin/env bash
# Builds the base image the Containerfile starts FROM, for machines that cannot pull from a registry:
# a Debian bookworm minbase made by mmdebstrap from a Debian mirror, imported into podman and tagged
# with the exact name the Containerfile uses, so the same Containerfile works with and without a registry.
# Needs root (or a user namespace mmdebstrap can use), mmdebstrap and podman.
#   deploy/container/build-base.sh [--mirror http://deb.debian.org]
set -euo pipefail

mirror=http://deb.debian.org
tag=docker.io/library/debian:bookworm-slim
while [ $# -gt 0 ]; do
  case "$1" in
    --mirror) mirror="${2:?--mirror needs a URL}"; shift 2 ;;
    --tag) tag="${2:?--tag needs an image name}"; shift 2 ;;
    *) echo "usage: $0 [--mirror URL] [--tag IMAGE]" >&2; exit 2 ;;
  esac
done

for tool in mmdebstrap podman; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install -y mmdebstrap podman)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The same trimming as Debian's own slim images: no manuals, docs or translations, now or in any
# package installed on top later (the dpkg options stay in /etc/dpkg/dpkg.cfg.d).
mmdebstrap --variant=minbase --mode=auto \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --aptopt='APT::Install-Recommends "false"' \
  --aptopt='Acquire::Retries "3"' \
  bookworm "$work/base.tar" \
  "deb $mirror/debian bookworm main" \
  "deb $mirror/debian bookworm-updates main" \
  "deb $mirror/debian-security bookworm-security main"

podman import --change 'CMD ["bash"]' "$work/base.tar" "$tag" >/dev/null
echo "Tagged $tag ($(podman image inspect --format '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1/1000000}'))"
