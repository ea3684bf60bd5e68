#!/usr/bin/env bash
# Every test: types, lint, unit tests (Node, real worker threads), then the end-to-end tests
# against the built app in headless Chromium. This is what `npm test` and CI run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/ensure-chromium.sh
bash tests/ensure-nats.sh
echo "== type check" && npx tsc --noEmit -p tsconfig.json
echo "== lint" && npx eslint -c tests/eslint.config.js src tests bench
echo "== unit tests" && npx vitest run
echo "== build" && npx vite build --logLevel warn
echo "== end-to-end tests" && npx playwright test -c tests/e2e/playwright.config.ts
