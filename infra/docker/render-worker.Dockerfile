# syntax=docker/dockerfile:1
# The render worker: compiled JavaScript (`node dist/main.js`, bundled by scripts/build-services.mjs) over
# production dependencies only, plus Debian's Chromium and the fonts renders depend on.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PUPPETEER_SKIP_DOWNLOAD=true \
    CI=true
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
WORKDIR /src

# --- build: the workspace, the worker's bundle and its production-only install ------------------------------
FROM base AS build
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# dist/ holds main.js and what it reads next to itself: the browser-side chart and code scripts and
# fonts.conf (the fontconfig file Chromium starts with, README "Fonts"). The chart libraries, JetBrains Mono
# and the consent rules are read from node_modules.
RUN node scripts/build-services.mjs --deploy /out render-worker
# The maintained block lists, with their licence: EasyList, EasyPrivacy and the EasyList Cookie List are dual
# licensed GPLv3 / CC BY-SA 3.0 (commercial use allowed); the licence texts and a README go beside them.
# `--build-arg BLOCKLISTS=` (empty) builds without them: the worker then uses the project's own lists.
ARG BLOCKLISTS=easylist
RUN if [ -n "$BLOCKLISTS" ]; then node scripts/fetch-blocklists.mjs /out/blocklists; fi

# --- runtime ----------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Before the app layer so code changes do not re-download Chromium. Only the headless shell, the one binary the
# worker starts (CHROMIUM_PATH): the full `chromium` package would add its GTK/X11 UI stack for nothing. The
# fonts are the ones scripts/lib/setup.sh installs (README.md, "Fonts"; ~150 MB): every major script and colour emoji.
# ffmpeg encodes screenshot videos (FFMPEG_PATH); Debian's build is GPL (x264), run as a separate program.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium-headless-shell \
      ffmpeg \
      fontconfig fonts-dejavu-core fonts-liberation2 fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
 && rm -rf /var/lib/apt/lists/*
# HOST: the health and metrics server listens on loopback by default (development); here on the container's interface.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    CHROMIUM_PATH=/usr/bin/chromium-headless-shell \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    RENDER_QUEUES=html,svg,chart,code,screenshot
# Owned by root, so the worker (and the Chromium it starts) can read but never change its code.
COPY --from=build /out /app
# The lists the build fetched (a file that is missing stops the worker); else the project's.
ARG BLOCKLISTS=easylist
ENV BLOCKLIST_FILES=${BLOCKLISTS:+ads=/app/blocklists/easylist.txt,trackers=/app/blocklists/easyprivacy.txt} \
    COOKIE_LIST_FILES=${BLOCKLISTS:+/app/blocklists/easylist-cookie.txt}
# "node" (uid 1000) comes with the Node image; the Kubernetes manifests run as that uid.
USER node
WORKDIR /app/services/render-worker
# Health (/health/live, /health/ready) and Prometheus /metrics: WORKER_HTTP_PORT.
EXPOSE 3003
CMD ["node", "dist/main.js"]
