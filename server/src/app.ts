import path from 'node:path';
import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { DEFAULT_TIMEZONE } from '@wa/core/config';
import type { ImportTuning } from '@wa/core/config-engine';
import type { Db } from '@wa/core/db/client';
import { badRequest } from '@wa/core/errors';
import type { FileStore } from '@wa/core/files/file-store';
import { defaultFileStore } from '@wa/core/files/legacy-uploads';
import { InProcessQueue, type JobQueue } from '@wa/core/jobs/queue';
import type { Logger } from '@wa/core/logger';
import { AttemptLimiter } from '@wa/core/rate-limit';
import { type EventBus, InProcessBus } from '@wa/core/realtime/bus';
import { Webhooks } from '@wa/core/webhooks/webhooks';
import { findNul, NUL_MSG, TOOLS, type WaEngine } from '@wa/shared';
import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import { signToken } from './auth/tokens';
import { allow, authenticate } from './http/auth';
import { compress } from './http/compression';
import { ERROR_FIELD_PATHS, echoErrorField } from './http/error-field';
import { apiNotFound, errorHandler } from './http/error-handler';
import { publicMediaRoutes } from './http/public-media';
import { webAppRoutes } from './http/web-app';
import { bulkImport } from './imports/bulk-import';
import { SkippedStore } from './imports/skipped-store';
import { ApiKeysRepo } from './modules/apikeys/apikeys.repo';
import { apiKeysRoutes } from './modules/apikeys/apikeys.routes';
import { ApiKeysService } from './modules/apikeys/apikeys.service';
import { authRoutes } from './modules/auth/auth.routes';
import { AuthService } from './modules/auth/auth.service';
import { BonusRepo } from './modules/bonus/bonus.repo';
import { bonusRoutes } from './modules/bonus/bonus.routes';
import { BonusService } from './modules/bonus/bonus.service';
import { CampaignReportRepo } from './modules/campaigns/campaign-report.repo';
import { CampaignReportService } from './modules/campaigns/campaign-report.service';
import { CampaignTargetsRepo } from './modules/campaigns/campaign-targets.repo';
import { CampaignTargetsService, campaignTargetImport } from './modules/campaigns/campaign-targets.service';
import { CampaignTemplatesRepo } from './modules/campaigns/campaign-templates.repo';
import { CampaignTemplatesService } from './modules/campaigns/campaign-templates.service';
import { CampaignsRepo } from './modules/campaigns/campaigns.repo';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { CampaignsService } from './modules/campaigns/campaigns.service';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { DashboardService } from './modules/dashboard/dashboard.service';
import { docsRoutes } from './modules/docs/docs.routes';
import { FirstRunRepo } from './modules/first-run/first-run.repo';
import { firstRunRoutes } from './modules/first-run/first-run.routes';
import { FirstRunService } from './modules/first-run/first-run.service';
import { HealthRepo } from './modules/health/health.repo';
import { healthRoutes } from './modules/health/health.routes';
import { HealthService } from './modules/health/health.service';
import { LevelsRepo } from './modules/levels/levels.repo';
import { levelsRoutes } from './modules/levels/levels.routes';
import { LevelsService } from './modules/levels/levels.service';
import { MessageLogRepo } from './modules/messagelog/messagelog.repo';
import { messageLogRoutes } from './modules/messagelog/messagelog.routes';
import { MessageLogService } from './modules/messagelog/messagelog.service';
import { Metrics } from './modules/metrics/metrics';
import { MetricsRepo } from './modules/metrics/metrics.repo';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { MonitorRepo } from './modules/monitor/monitor.repo';
import { monitorRoutes, simRoutes } from './modules/monitor/monitor.routes';
import { MonitorService, type MonitorSources } from './modules/monitor/monitor.service';
import { queueBoardRoutes } from './modules/monitor/queue-board';
import { PhoneNumbersRepo } from './modules/phone-numbers/phone-numbers.repo';
import { phoneNumbersRoutes } from './modules/phone-numbers/phone-numbers.routes';
import { PHONE_IMPORT, PhoneNumbersService } from './modules/phone-numbers/phone-numbers.service';
import { ProxiesRepo } from './modules/proxies/proxies.repo';
import { proxiesRoutes } from './modules/proxies/proxies.routes';
import { PROXY_IMPORT, ProxiesService } from './modules/proxies/proxies.service';
import { ReportRepo } from './modules/report/report.repo';
import { reportRoutes } from './modules/report/report.routes';
import { ReportService } from './modules/report/report.service';
import { SettingsRepo } from './modules/settings/settings.repo';
import { publicSettingsRoutes, settingsRoutes } from './modules/settings/settings.routes';
import { SettingsService } from './modules/settings/settings.service';
import { TemplatesRepo } from './modules/templates/templates.repo';
import { templatesRoutes } from './modules/templates/templates.routes';
import { TemplatesService } from './modules/templates/templates.service';
import { ToolsRepo } from './modules/tools/tools.repo';
import { toolsRoutes } from './modules/tools/tools.routes';
import { ToolsService } from './modules/tools/tools.service';
import { transaction } from './modules/transaction';
import { UsersRepo } from './modules/users/users.repo';
import { usersRoutes } from './modules/users/users.routes';
import { UsersService } from './modules/users/users.service';
import { WebhooksRepo } from './modules/webhooks/webhooks.repo';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { WebhooksService } from './modules/webhooks/webhooks.service';
import { WhatsappRepo } from './modules/whatsapp/whatsapp.repo';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes';
import { WhatsappService } from './modules/whatsapp/whatsapp.service';
import { WhatsappLogins } from './modules/whatsapp/whatsapp-login.service';
import { OneOffSends } from './modules/whatsapp/whatsapp-send.service';
import { WithdrawRepo } from './modules/withdraw/withdraw.repo';
import { withdrawRoutes } from './modules/withdraw/withdraw.routes';
import { WithdrawService } from './modules/withdraw/withdraw.service';

/** One API key's budget: 600 requests a minute, per API process. */
export const API_KEY_RATE = { max: 600, windowMs: 60_000 };

export interface AppDeps {
  db: Db;
  jwtSecret: string;
  logger: Logger;
  /** the built dashboard; when absent only the API is served */
  webDist?: string | null;
  /** DATA_DIR: uploads wait in `${dataDir}/tmp` during their request; earlier versions kept them in `${dataDir}/uploads` */
  dataDir: string;
  /** where template media and validator files are kept (the database, with the legacy disk fallback, when absent) */
  files?: FileStore;
  /** live events and requests to the workers (in-process when absent) */
  bus?: EventBus;
  /** jobs for the workers (in-process when absent) */
  queue?: JobQueue;
  /** how long GET qr-new-client waits (§9: 120 s) */
  qrTimeoutMs?: number;
  /** WA_DRIVER: the engine new accounts log in with (null: the simulator, which needs none) */
  defaultEngine?: WaEngine | null;
  /** METRICS_TOKEN: GET /metrics answers this bearer token; absent, /metrics is 404 */
  metricsToken?: string | null;
  /** requests one API key may make per window (API_KEY_RATE when absent; tests lower it) */
  apiKeyRate?: { max: number; windowMs: number };
  /** APP_TIMEZONE: whose calendar day the dashboard's "today" is (Asia/Jakarta when absent) */
  timezone?: string;
  /** what the dev monitor reads of this process: its engine (embedded mode) and WebSocket hub */
  monitor?: MonitorSources;
  /** TRUST_PROXY: Express's `trust proxy`, so the client address is right behind a reverse proxy */
  trustProxy?: boolean | number | string;
  /** IMPORT_*: where the bulk importer switches paths (DEFAULT_IMPORT_TUNING when absent) */
  importTuning?: ImportTuning;
  /** the embedded engine's Prometheus registry, served with the API's on /metrics */
  engineMetrics?: Registry | null;
  /** the process's webhooks (made from db, queue and bus when absent) */
  webhooks?: Webhooks;
  /** WA_SWEEP_MS: /api/health gives a takeover two sweeps before it flags a sending account nobody holds */
  sweepMs?: number;
}

/** The Express app without `listen`, so tests drive it directly. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  // brotli or gzip for JSON and the dashboard's files (issue 23); not for media, ranges or event streams
  app.use(compress());

  // the composition root: every repository is built here and handed to its service; services that
  // own a transaction get a Transaction that binds theirs to it
  const tmpDir = path.join(deps.dataDir, 'tmp');
  const usersRepo = new UsersRepo(deps.db);
  const bus = deps.bus ?? new InProcessBus();
  const usersService = new UsersService(usersRepo, bus);
  const authService = new AuthService(usersRepo, usersService, deps.jwtSecret);
  const apiKeys = new ApiKeysService(new ApiKeysRepo(deps.db));
  const keyRate = deps.apiKeyRate ?? API_KEY_RATE;
  const requireAuth = authenticate(deps.jwtSecret, (id) => usersRepo.authState(id), {
    owner: (key) => apiKeys.owner(key),
    touch: (id) => apiKeys.touch(id),
    limiter: new AttemptLimiter(keyRate.max, keyRate.windowMs),
  });
  const signFor = (user: { id: number; role: string; tokenVersion: number }) => signToken(deps.jwtSecret, user);

  const queue = deps.queue ?? new InProcessQueue();
  // the API's events (blasts started and stopped, withdrawals) for the webhooks; the workers have their own
  const webhooks = deps.webhooks ?? new Webhooks({ db: deps.db, queue, log: deps.logger, bus });
  void webhooks.listen().catch((err) => deps.logger.warn({ err }, 'webhook changes not followed'));
  const metrics = new Metrics({
    repo: new MetricsRepo(deps.db),
    queue,
    sockets: () => deps.monitor?.hub?.()?.sockets.length ?? null,
    engine: deps.engineMetrics ?? null,
  });
  app.use('/metrics', metricsRoutes(metrics, deps.metricsToken ?? null));
  const api = express.Router();
  api.use(metrics.middleware);
  api.use(ERROR_FIELD_PATHS, echoErrorField);
  api.use(express.json({ limit: '1mb' }));
  // PostgreSQL cannot store a NUL character: refuse it in any body or query, whatever the route
  api.use((req, _res, next) => {
    const where = findNul(req.query) ?? findNul(req.body);
    if (where !== null) throw badRequest(`${where || 'The request'} ${NUL_MSG}`, where ? { [where]: NUL_MSG } : {});
    next();
  });
  api.use('/health', healthRoutes(new HealthService(new HealthRepo(deps.db), bus, { sweepMs: deps.sweepMs })));
  // issue 13: GET /api/openapi.json and the Swagger UI at /api/docs, both public
  api.use(docsRoutes());
  api.use('/auth', authRoutes(authService, usersService, requireAuth));
  api.use('/admin/apikeys', requireAuth, apiKeysRoutes(apiKeys));
  api.use('/admin/webhooks', requireAuth, webhooksRoutes(new WebhooksService(new WebhooksRepo(deps.db), queue, bus)));
  api.use('/admin/users', requireAuth, usersRoutes(usersService, signFor));
  // uploads go into the file store, where every worker reads them (issue 19); multer's copy is only for the request
  const files = deps.files ?? defaultFileStore(deps.db, deps.dataDir);
  const uploadDir = path.join(tmpDir, 'uploads');
  // the full skipped lists of recent imports, downloadable by their importer for a while
  const skippedLists = new SkippedStore(path.join(tmpDir, 'skipped'));
  const importCtx = (owner: number) => ({ tmpRoot: tmpDir, store: skippedLists, owner, tuning: deps.importTuning });
  const campaignsRepo = new CampaignsRepo(deps.db);
  const campaignTargets = new CampaignTargetsService(
    campaignsRepo,
    new CampaignTargetsRepo(deps.db),
    (file, owner, campaignId) =>
      metrics.timeImport('campaign_targets', () =>
        bulkImport(deps.db, campaignTargetImport(campaignId), file, importCtx(owner)),
      )(),
    skippedLists,
  );
  api.use(
    '/admin/campaigns',
    requireAuth,
    campaignsRoutes(new CampaignsService(campaignsRepo), {
      variants: new CampaignTemplatesService(new CampaignTemplatesRepo(deps.db), campaignsRepo, files),
      targets: campaignTargets,
      reports: new CampaignReportService(
        new CampaignReportRepo(deps.db, deps.timezone ?? DEFAULT_TIMEZONE),
        campaignsRepo,
      ),
      uploadDir,
    }),
  );
  const phones = new PhoneNumbersService(
    new PhoneNumbersRepo(deps.db),
    (file, owner) =>
      metrics.timeImport('phone_numbers', () => bulkImport(deps.db, PHONE_IMPORT, file, importCtx(owner)))(),
    skippedLists,
  );
  api.use('/admin/phonenumber', requireAuth, phoneNumbersRoutes(phones));
  const proxies = new ProxiesService(
    new ProxiesRepo(deps.db),
    (file, owner) => metrics.timeImport('proxies', () => bulkImport(deps.db, PROXY_IMPORT, file, importCtx(owner)))(),
    skippedLists,
  );
  api.use('/admin/proxy', requireAuth, proxiesRoutes(proxies));
  api.use('/admin/level', requireAuth, levelsRoutes(new LevelsService(new LevelsRepo(deps.db))));
  api.use('/admin/first-run', requireAuth, firstRunRoutes(new FirstRunService(new FirstRunRepo(deps.db))));
  const settingsService = new SettingsService(new SettingsRepo(deps.db));
  api.use('/admin/setting', requireAuth, settingsRoutes(settingsService));
  // issue 20: the public pages' texts and the Telegram link, no token needed
  api.use('/settings', publicSettingsRoutes(settingsService));
  const timezone = deps.timezone ?? DEFAULT_TIMEZONE;
  const messageLogs = new MessageLogService(new MessageLogRepo(deps.db), usersRepo, timezone);
  api.use('/admin/messagelog', requireAuth, messageLogRoutes(messageLogs));
  api.use('/admin/report', requireAuth, reportRoutes(new ReportService(new ReportRepo(deps.db, timezone))));
  const withdrawals = new WithdrawService(
    new WithdrawRepo(deps.db),
    usersRepo,
    transaction(deps.db, (tx) => new WithdrawRepo(tx)),
    webhooks,
  );
  api.use('/admin/withdraw', requireAuth, withdrawRoutes(withdrawals));
  const bonuses = new BonusService(
    new BonusRepo(deps.db),
    usersRepo,
    transaction(deps.db, (tx) => ({ bonuses: new BonusRepo(tx), withdrawals: new WithdrawRepo(tx) })),
  );
  api.use('/admin/bonus', requireAuth, bonusRoutes(bonuses));
  const templates = new TemplatesService(
    new TemplatesRepo(deps.db),
    files,
    transaction(deps.db, (tx) => new TemplatesRepo(tx)),
  );
  api.use('/admin/message', requireAuth, templatesRoutes(templates, uploadDir));
  const accounts = new WhatsappRepo(deps.db);
  for (const kind of ['generator', 'validator'] as const) {
    const tools = new ToolsService(new ToolsRepo(deps.db, kind), accounts, bus, kind, uploadDir, files);
    api.use(`/admin/${kind}`, requireAuth, toolsRoutes(TOOLS[kind], tools));
  }
  const whatsapp = {
    accounts: new WhatsappService(accounts, new AccountsRepo(deps.db), bus, webhooks),
    logins: new WhatsappLogins(
      accounts,
      queue,
      bus,
      transaction(deps.db, (tx) => ({ logins: new WhatsappRepo(tx), accounts: new AccountsRepo(tx) })),
      { qrTimeoutMs: deps.qrTimeoutMs, defaultEngine: deps.defaultEngine ?? null },
    ),
    sends: new OneOffSends(
      accounts,
      new PhoneNumbersRepo(deps.db),
      queue,
      transaction(deps.db, (tx) => new WhatsappRepo(tx)),
    ),
  };
  api.use('/admin/whatsapp', requireAuth, whatsappRoutes(whatsapp));
  // issue 23: a dashboard's figures in one call, from the services behind the counter routes
  const dashboard = new DashboardService({
    roles: usersRepo,
    accounts: whatsapp.accounts,
    logs: messageLogs,
    withdrawals,
    bonuses,
    users: usersService,
    proxies,
    phones,
  });
  api.use('/admin/dashboard', requireAuth, dashboardRoutes(dashboard));
  const monitor = new MonitorService(new MonitorRepo(deps.db), bus, queue, deps.monitor);
  api.use('/dev/monitor', requireAuth, monitorRoutes(monitor));
  api.use('/dev/sim', requireAuth, simRoutes(monitor));
  api.use('/dev/queues', requireAuth, allow('monitor'), queueBoardRoutes(queue));
  api.use(apiNotFound);
  app.use('/api', api);
  // template media only: validator uploads (members' contact lists) are not public and go through
  // GET /api/admin/validator/file/{id}
  app.use('/uploads/templates', publicMediaRoutes(files));
  app.use('/uploads', (_req, res) => {
    res.status(404).json({ msg: 'File not found' });
  });

  // the built dashboard (its files cached by their hashed names) and every screen's address
  app.use(webAppRoutes(deps.webDist ?? null));
  app.use((_req, res) => {
    res.status(404).json({ msg: 'Not found' });
  });
  app.use(errorHandler(deps.logger));
  return app;
}
