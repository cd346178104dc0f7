# syntax=docker/dockerfile:1
# The render worker: the Node image (see node.Dockerfile) plus Debian's Chromium
# and the fonts renders depend on.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PUPPETEER_SKIP_DOWNLOAD=true \
    CI=true
RUN npm install -g pnpm@10 && npm cache clean --force
WORKDIR /app

FROM base AS deps
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline

FROM base AS runtime
# Before the app layer so code changes do not re-download Chromium. The fonts are the ones
# scripts/lib/setup.sh installs (README.md, "Fonts"; ~150 MB): every major script and colour emoji. The
# worker points Chromium at /app/infra/fonts/fonts.conf (copied with the app) through FONTCONFIG_FILE.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium chromium-headless-shell \
      fontconfig fonts-dejavu-core fonts-liberation2 fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH \
    CHROMIUM_PATH=/usr/bin/chromium-headless-shell \
    RENDER_QUEUES=html,svg,chart,code,screenshot
COPY --from=deps --chown=node:node /app /app
USER node
WORKDIR /app/services/render-worker
# Health (/health/live, /health/ready) and Prometheus /metrics: WORKER_HTTP_PORT.
EXPOSE 3003
CMD ["tsx", "src/main.ts"]
