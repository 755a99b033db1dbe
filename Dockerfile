# One image for the API (npm start) and the workers (npm run worker).
FROM node:20-bookworm-slim
ENV PUPPETEER_SKIP_DOWNLOAD=true \
    CHROME_PATH=/usr/bin/chromium \
    NODE_ENV=production \
    DATA_DIR=/data
# Chromium from Debian for whatsapp-web.js; fonts so WhatsApp Web renders
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
COPY shared/package.json shared/
COPY core/package.json core/
COPY server/package.json server/
COPY workers/package.json workers/
COPY app/package.json app/
COPY web/package.json web/
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN node scripts/web-build.mjs
VOLUME /data
EXPOSE 3000
CMD ["npm", "start"]
