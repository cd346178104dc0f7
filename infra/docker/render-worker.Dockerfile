# syntax=docker/dockerfile:1
# The render worker: compiled JavaScript (`node dist/main.js`, bundled by scripts/build-services.mjs) over
# production dependencies only, plus Debian's Chromium and the fonts renders depend on.

ARG NODE_IMAGE=node:20-bookworm-slim

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

# --- block lists: EasyList, EasyPrivacy and EasyList Cookie, with their licence ---------------------------
# The worker's default lists are the project's own small ones (services/render-worker/blocklists); the image
# ships the maintained lists instead. They are dual licensed GPLv3 / CC BY-SA 3.0 (commercial use allowed):
# the licence texts go beside them. `--build-arg BLOCKLISTS=` (empty) builds without them: the project's lists.
FROM ${NODE_IMAGE} AS blocklists
ARG BLOCKLISTS=easylist
RUN mkdir -p /blocklists \
 && if [ -n "$BLOCKLISTS" ]; then \
      apt-get update && apt-get install -y --no-install-recommends ca-certificates curl && rm -rf /var/lib/apt/lists/* \
      && cd /blocklists \
      && curl -fsSL --retry 3 -o easylist.txt https://easylist.to/easylist/easylist.txt \
      && curl -fsSL --retry 3 -o easyprivacy.txt https://easylist.to/easylist/easyprivacy.txt \
      && curl -fsSL --retry 3 -o easylist-cookie.txt https://secure.fanboy.co.nz/fanboy-cookiemonster.txt \
      && curl -fsSL --retry 3 -o LICENSE-GPL-3.0.txt https://www.gnu.org/licenses/gpl-3.0.txt \
      && curl -fsSL --retry 3 -o LICENSE-CC-BY-SA-3.0.txt https://creativecommons.org/licenses/by-sa/3.0/legalcode.txt \
      && printf '%s\n' \
        'easylist.txt, easyprivacy.txt and easylist-cookie.txt are the EasyList authors'"'"' lists' \
        '(https://easylist.to), dual licensed under the GNU GPL v3 (LICENSE-GPL-3.0.txt) and' \
        'Creative Commons Attribution-ShareAlike 3.0 (LICENSE-CC-BY-SA-3.0.txt), as fetched when this image was built.' \
        > README; \
    else \
      printf '%s\n' 'Built with an empty BLOCKLISTS: the worker uses the project'"'"'s own lists.' > /blocklists/README; \
    fi

# --- runtime ----------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Before the app layer so code changes do not re-download Chromium. The fonts are the ones
# scripts/lib/setup.sh installs (README.md, "Fonts"; ~150 MB): every major script and colour emoji.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium chromium-headless-shell \
      fontconfig fonts-dejavu-core fonts-liberation2 fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/bin/chromium-headless-shell \
    RENDER_QUEUES=html,svg,chart,code,screenshot
# Owned by root, so the worker (and the Chromium it starts) can read but never change its code.
COPY --from=build /out /app
COPY --from=blocklists /blocklists /app/blocklists
# The lists above when they were fetched (a file that is missing stops the worker); else the project's.
ARG BLOCKLISTS=easylist
ENV BLOCKLIST_FILES=${BLOCKLISTS:+ads=/app/blocklists/easylist.txt,trackers=/app/blocklists/easyprivacy.txt} \
    COOKIE_LIST_FILES=${BLOCKLISTS:+/app/blocklists/easylist-cookie.txt}
# "node" (uid 1000) comes with the Node image; the Kubernetes manifests run as that uid.
USER node
WORKDIR /app/services/render-worker
# Health (/health/live, /health/ready) and Prometheus /metrics: WORKER_HTTP_PORT.
EXPOSE 3003
CMD ["node", "dist/main.js"]
