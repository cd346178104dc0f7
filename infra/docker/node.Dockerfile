# syntax=docker/dockerfile:1
# One image for every Node service except the render worker (render-worker.Dockerfile): gateway, auth,
# templates, and the migrate + seed job. Each service runs compiled JavaScript (`node dist/…`, bundled by
# scripts/build-services.mjs) over production dependencies only; docker-compose.yml and the Kubernetes
# manifests pick the service with the working directory and command:
#
#   /app/services/gateway     node dist/server.js        (the default; serves /app/apps/web/dist)
#   /app/services/auth        node dist/server.js
#   /app/services/templates   node dist/server.js
#   /app/services/templates   node dist/migrate.cli.js && node dist/seed.cli.js   (migrations, starters)

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PUPPETEER_SKIP_DOWNLOAD=true \
    CI=true
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
WORKDIR /src

# --- build: the whole workspace (dev dependencies included), the bundles, the web app ---------------------
FROM base AS build
# Dependencies are downloaded from the lockfile alone, so this layer is reused until the lockfile changes;
# the store it fills also serves the production install below (--offline).
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# The web app, built once: the gateway serves it (WEB_DIST_DIR) with a client-route fallback. Its build
# exports the OpenAPI document and Postman collections from the gateway's own schemas first.
# WEB_SOURCEMAPS=public: source maps linked from the bundles and served with them (anyone can read the
# original sources); otherwise they are built "hidden" (for an error-report upload from this stage) and left
# out of the image.
ARG WEB_SOURCEMAPS=hidden
RUN WEB_SOURCEMAPS=$WEB_SOURCEMAPS pnpm --filter @render/web build
# Bundles (dist/) plus a production-only install of the three services, laid out as /app below.
RUN node scripts/build-services.mjs --deploy /out gateway auth templates \
 && mkdir -p /out/apps/web \
 && cp -r apps/web/dist /out/apps/web/dist \
 && if [ "$WEB_SOURCEMAPS" != public ]; then find /out/apps/web/dist -name '*.map*' -delete; fi

# --- runtime: node, the bundles, production node_modules; no pnpm, no tsx, no sources ----------------------
FROM ${NODE_IMAGE} AS runtime
# The gateway serves the web app's source maps only if the build made them public (the same argument).
ARG WEB_SOURCEMAPS=hidden
# HOST: the services listen on loopback by default (development); in a container, on its interface.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    WEB_DIST_DIR=/app/apps/web/dist \
    WEB_SOURCEMAPS=${WEB_SOURCEMAPS}
# Owned by root, so the service user can read but never change its code.
COPY --from=build /out /app
# "node" (uid 1000) comes with the Node image; the Kubernetes manifests run as that uid.
USER node
WORKDIR /app/services/gateway
EXPOSE 3000
# Node as the process that gets SIGTERM: each service drains and exits on it (docker-compose adds an init).
CMD ["node", "dist/server.js"]
