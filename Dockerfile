# One image for the API (`npm start`, the default command) and the workers (`npm run worker`).
# Stages: the manifests, production dependencies, the dashboard's build (which needs the dev
# dependencies), and the runtime, which gets only the last two's results: no compiler, no test
# tools, no vite.

# --- the workspaces' manifests, which both installs start from
FROM node:20-bookworm-slim AS manifests
ENV PUPPETEER_SKIP_DOWNLOAD=true
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
COPY shared/package.json shared/
COPY core/package.json core/
COPY server/package.json server/
COPY workers/package.json workers/
COPY app/package.json app/
COPY web/package.json web/

# --- production dependencies only (tsx runs the TypeScript at run time, so it is one of them)
FROM manifests AS deps
RUN npm ci --omit=dev --no-audit --no-fund

# --- the dashboard (web/dist), built with the dev dependencies, which stay in this stage
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/web-build.mjs scripts/
COPY shared shared
COPY web web
RUN node scripts/web-build.mjs

# --- runtime
FROM node:20-bookworm-slim AS runtime
# Chromium from Debian for whatsapp-web.js, fonts so WhatsApp Web renders, and tini as PID 1: it
# forwards SIGTERM (a worker then lets its jobs finish) and reaps the Chromium processes that exit
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PUPPETEER_SKIP_DOWNLOAD=true \
    CHROME_PATH=/usr/bin/chromium \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app ./
COPY package.json package-lock.json .puppeteerrc.cjs tsconfig.json ./
COPY scripts scripts
COPY shared shared
COPY core core
COPY server server
COPY workers workers
COPY app app
COPY --from=build /app/web/dist web/dist
# the code stays root's and read-only; the process runs as `node` (uid 1000) and writes only to /data
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# the API's check (answers 503 with its reasons when not well: docs/MONITORING.md); a worker
# container replaces it with `npm run -s worker:health` (docker-compose.yml)
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# `npm start` without npm: npm's shell does not pass SIGTERM on, so the process would be killed at
# the end of the stop timeout instead of stopping cleanly (docker-compose.yml runs workers alike)
CMD ["node", "scripts/start.mjs"]
