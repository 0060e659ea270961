#!/usr/bin/env bash
# make run-sim: Chairside with Synchrony and Vive reached over HTTP, through
# the lender simulator on 127.0.0.1:8090 (docs/running.md, "Lenders over HTTP").
# The simulator approves a pending application after a few seconds and says
# so by signed webhook; the other lenders stay the built-in sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."

export CHAIRSIDE_SIM_API_KEY=${CHAIRSIDE_SIM_API_KEY:-sim-api-key}
export CHAIRSIDE_SIM_WEBHOOK_SECRET=${CHAIRSIDE_SIM_WEBHOOK_SECRET:-sim-webhook-secret}
ADDR=${CHAIRSIDE_ADDR:-127.0.0.1:8080}

./bin/chairside lendersim -addr 127.0.0.1:8090 -api-key "$CHAIRSIDE_SIM_API_KEY" \
	-webhook-secret "$CHAIRSIDE_SIM_WEBHOOK_SECRET" \
	-webhook-url "http://$ADDR/api/v1/lenders/{providerKey}/webhooks" "$@" &
SIM=$!
trap 'kill $SIM 2>/dev/null || true' EXIT

./bin/chairside serve -env dev -addr "$ADDR" -sandbox-latency 1s -lenders examples/lenders.yaml
