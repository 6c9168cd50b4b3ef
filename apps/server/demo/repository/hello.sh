#!/usr/bin/env bash
# Gantry demo: a bash script. Extra variables of the task arrive as KEY=VALUE arguments,
# variables of the variable group's "Environment" part arrive as environment variables.
set -euo pipefail

echo "Hello from the Gantry demo project!"
echo "Running as $(id -un) on $(uname -sr)"
echo "DEMO_STAGE=${DEMO_STAGE:-unset}"
for argument in "$@"; do
  echo "argument: ${argument}"
done
echo "Bash demo finished."
