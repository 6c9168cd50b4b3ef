#!/usr/bin/env bash
# Builds the Gantry image from the Containerfile at the repository root and tags it gantry/gantry:<version>
# and gantry/gantry:latest, the name the runner dialog and docs/runners.md use.
# Uses podman, or docker when podman is missing (CONTAINER_ENGINE=docker to choose). Further arguments go
# to the engine's build command, for example:
#   deploy/container/build.sh --network=host --runtime /usr/sbin/runc
# Without a registry, first build the base image: deploy/container/build-base.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

engine="${CONTAINER_ENGINE:-}"
if [ -z "$engine" ]; then
  if command -v podman >/dev/null; then engine=podman; else engine=docker; fi
fi
version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' apps/server/package.json)"
image="${GANTRY_IMAGE:-gantry/gantry}"

# HEALTHCHECK exists only in the Docker image format; podman builds OCI images unless told otherwise.
format=()
[ "$engine" = podman ] && format=(--format docker)

"$engine" build "${format[@]}" -f Containerfile -t "$image:$version" -t "$image:latest" "$@" .
echo "Built $image:$version ($("$engine" image inspect --format '{{.Size}}' "$image:$version" | awk '{printf "%.0f MB", $1/1000000}'))"
