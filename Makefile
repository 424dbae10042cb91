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

verify: deps ## Generated files (CRDs) are up to date
	npm run --silent gen:crds -- --check
	npm run --silent chart:crds -- --check

test: deps typecheck lint verify ## Type-check, lint, check generated CRDs and run every test
	npm test

# Until `karpenter-eu demo` lands, the demo runs the most complete real path that exists: the bundled
# catalogs priced per region, admission of the example NodePools/NodeClasses, and the provisioning plan
# (cheapest fitting flavors) for the example workloads on each cloud.
CLI := node dist/src/cli/bin.js
demo: build ## Run the embedded default: the main job on the local test bed
	$(CLI) catalog --cloud ovhcloud --region GRA11
	$(CLI) catalog --cloud scaleway --region fr-par
	$(CLI) catalog --cloud outscale --region eu-west-2
	$(CLI) validate -f manifests/examples
	$(CLI) plan -f manifests/examples/ovhcloud -f manifests/examples/workloads/inflate.yaml -f manifests/examples/workloads/zone-spread.yaml
	$(CLI) plan -f manifests/examples/scaleway -f manifests/examples/workloads/inflate.yaml -f manifests/examples/workloads/gpu-pod.yaml
	$(CLI) plan -f manifests/examples/outscale -f manifests/examples/workloads/inflate-large.yaml

.PHONY: help deps build typecheck lint verify test demo
