// Never let puppeteer (pulled in by whatsapp-web.js) download a browser: Chromium comes from the
// system (CHROME_PATH, else /usr/bin/chromium).
module.exports = { skipDownload: true };
