# karpenter-eu service image: build on Node 22, run on distroless Node 22 as non-root.
# (Not buildable on the project's build machines, which have no Docker engine; kept standard on purpose.)
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY webhooks ./webhooks
RUN npm run build && npm prune --omit=dev

FROM gcr.io/distroless/nodejs22-debian12:nonroot
# The source commit, reported as karpenter_build_info's `commit` (docker build --build-arg COMMIT=$(git rev-parse HEAD)).
ARG COMMIT=""
ENV KARPENTER_EU_COMMIT=$COMMIT
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER 65532:65532
EXPOSE 8443 8444 8080
ENTRYPOINT ["/nodejs/bin/node", "dist/src/cli/bin.js"]
CMD ["run"]
