import { hostname } from 'node:os';
import { AppError, notFound } from '@wa/core/errors';
import type { JobQueue } from '@wa/core/jobs/queue';
import type { EventBus } from '@wa/core/realtime/bus';
import { callDevice, NoHolderError } from '@wa/core/realtime/rpc';
import type { MonitorLocal, MonitorRemote, MonitorSocket, SimCommand, SimResult } from '@wa/shared';
import type { HubInspection } from '../../realtime/hub';
import type { MonitorRepo } from './monitor.repo';

/**
 * What the dev monitor reads of the process it runs in. Both are optional: a test app has neither,
 * an API in scale-out mode has a hub but no engine (the workers hold the sessions).
 */
export interface MonitorSources {
  /** the WhatsApp engine this process runs itself (embedded mode) */
  engine?: () => { workerId: string; sessions: Record<string, string> };
  /** this process's WebSocket hub, once it is attached */
  hub?: () => HubInspection | null;
  /** the installation runs the simulator (WA_DRIVER=sim): POST /dev/sim/{deviceId} is open to devs */
  simulator?: boolean;
}

/** How long the remote monitor waits for the holder of a device: a live holder answers in milliseconds. */
export const HOLDER_TIMEOUT_MS = 1500;

const STARTED_AT = new Date(Date.now() - Math.round(process.uptime() * 1000));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The dev monitor (§2 Monitor, §7 Dev monitor): read-only views of this process, a device and a user's sockets. */
export class MonitorService {
  constructor(
    private readonly repo: MonitorRepo,
    private readonly bus: EventBus,
    private readonly queue: JobQueue | null,
    private readonly sources: MonitorSources = {},
    private readonly holderTimeoutMs = HOLDER_TIMEOUT_MS,
  ) {}

  /** GET /dev/monitor/local: this API process. */
  local(): MonitorLocal {
    const mem = process.memoryUsage();
    const engine = this.sources.engine?.();
    const hub = this.sources.hub?.() ?? null;
    return {
      time: new Date().toISOString(),
      process: {
        pid: process.pid,
        hostname: hostname(),
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        startedAt: STARTED_AT.toISOString(),
        uptimeSeconds: Math.round(process.uptime()),
      },
      memoryMb: {
        rss: mb(mem.rss),
        heapUsed: mb(mem.heapUsed),
        heapTotal: mb(mem.heapTotal),
        external: mb(mem.external),
      },
      bus: this.bus.kind,
      queue: this.queue?.kind ?? null,
      engine: engine
        ? {
            embedded: true,
            workerId: engine.workerId,
            size: Object.keys(engine.sessions).length,
            sessions: engine.sessions,
          }
        : {
            embedded: false,
            note: 'This process runs no WhatsApp engine: the worker processes hold the sessions. See /monitor/remote?id={clientid}.',
          },
      hub: hub
        ? { sockets: hub.sockets.length, channels: hub.channels }
        : { note: 'No realtime hub is attached to this process.' },
    };
  }

  /**
   * GET /dev/monitor/remote?id: the account row and the live answer of whichever worker holds the
   * device. Nobody holding it is a fact to show, not an error; a device with neither is unknown.
   */
  async remote(deviceId: string): Promise<MonitorRemote> {
    const started = Date.now();
    const [account, asked] = await Promise.all([this.repo.accountByClientId(deviceId), this.askHolder(deviceId)]);
    if (!account && !asked.holder) throw notFound('WhatsApp account not found.');
    return { deviceId, account, ...asked, askedMs: Date.now() - started };
  }

  private async askHolder(deviceId: string): Promise<Pick<MonitorRemote, 'holder' | 'holderError'>> {
    try {
      const reply = await callDevice(
        this.bus,
        deviceId,
        'state',
        { privileged: true },
        { timeoutMs: this.holderTimeoutMs },
      );
      if (!reply.ok) return { holder: null, holderError: reply.error };
      const d = reply.data;
      return {
        holder: {
          workerId: typeof d.workerId === 'string' ? d.workerId : null,
          state: typeof d.state === 'string' ? d.state : null,
          info: d.info && typeof d.info === 'object' ? (d.info as Record<string, unknown>) : null,
        },
      };
    } catch (err) {
      if (err instanceof NoHolderError) return { holder: null };
      return { holder: null, holderError: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * POST /dev/sim/{deviceId}: the simulated WhatsApp does something to a live account (a revoke, a
   * reply, failures, a ban, a drop…) through the worker that holds it. 404 when the installation
   * does not run the simulator, or nobody holds the device.
   */
  async simulate(deviceId: string, command: SimCommand): Promise<SimResult> {
    if (!this.sources.simulator) throw notFound('The simulator is not in use (WA_DRIVER=sim).');
    let reply: Awaited<ReturnType<typeof callDevice<'sim'>>>;
    try {
      reply = await callDevice(
        this.bus,
        deviceId,
        'sim',
        { command, privileged: true },
        { timeoutMs: this.holderTimeoutMs },
      );
    } catch (err) {
      if (err instanceof NoHolderError) throw notFound('No worker holds this device: it is not connected.');
      throw err;
    }
    if (!reply.ok) throw new AppError(reply.status ?? 400, reply.error);
    return reply.data;
  }

  /** GET /dev/monitor/socket?id: the sockets a user has open on this API process. */
  async socket(userId: number): Promise<MonitorSocket> {
    const user = await this.repo.user(userId);
    if (!user) throw notFound('User not found');
    const hub = this.sources.hub?.() ?? null;
    const mine = (hub?.sockets ?? []).filter((s) => s.userId === userId);
    const result: MonitorSocket = {
      userId,
      user,
      count: mine.length,
      channels: [...new Set(mine.flatMap((s) => s.channels))].sort(),
      sockets: mine.map((s) => ({ channels: s.channels, connectedSince: s.since.toISOString() })),
    };
    if (!hub) result.note = 'No realtime hub is attached to this process.';
    else if (this.bus.kind === 'redis') result.note = 'Only the sockets connected to this API replica are listed.';
    return result;
  }
}
