# syntax=docker/dockerfile:1
# One image for every Node service except the render worker (which also needs
# Chromium: render-worker.Dockerfile). The whole workspace is installed, since
# services run their TypeScript source with tsx; SERVICE/ENTRY only pick the
# default command, and docker-compose.yml sets working_dir/command per service
# so a single build serves gateway, migrate and later services.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PUPPETEER_SKIP_DOWNLOAD=true \
    CI=true
RUN npm install -g pnpm@10 && npm cache clean --force
WORKDIR /app

FROM base AS deps
# Dependencies are downloaded from the lockfile alone, so this layer is reused
# until the lockfile changes, whatever else does.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# The web app, built once: the gateway serves apps/web/dist (WEB_DIST_DIR) with a client-route fallback.
# Its build exports the OpenAPI document and Postman collections from the gateway's own schemas first.
RUN pnpm --filter @render/web build

FROM base AS runtime
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH
COPY --from=deps --chown=node:node /app /app
USER node
ENV WEB_DIST_DIR=/app/apps/web/dist
ARG SERVICE=gateway
ARG ENTRY=src/server.ts
ENV ENTRY=${ENTRY}
WORKDIR /app/services/${SERVICE}
# tsx relays SIGTERM to the node process it starts, so graceful shutdown works
# under `init: true` without pnpm in between.
CMD ["sh", "-c", "exec tsx \"$ENTRY\""]
