# karpenter-eu service image: build on Node 22, run on distroless Node 22 as non-root.
# (Not buildable on the project's build machines, which have no Docker engine; kept standard on purpose.)
# The image carries the product build (dist/, tsconfig.build.json: no test bed, no `demo`) and the production
# dependencies only; test/image/image-contents.test.ts checks that from this file. Base images are pinned by
# digest (tag kept for readers): bump both together.
FROM node:22.23.3-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY webhooks ./webhooks
RUN npm run build

FROM node:22.23.3-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM gcr.io/distroless/nodejs22-debian12:nonroot@sha256:13593b7570658e8477de39e2f4a1dd25db2f836d68a0ba771251572d23bb4f8e
# The source commit, reported as karpenter_build_info's `commit` (docker build --build-arg COMMIT=$(git rev-parse HEAD)).
ARG COMMIT=""
ENV KARPENTER_EU_COMMIT=$COMMIT
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER 65532:65532
EXPOSE 8443 8444 8080
ENTRYPOINT ["/nodejs/bin/node", "dist/src/cli/bin.js"]
CMD ["run"]
