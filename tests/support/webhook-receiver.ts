import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { type Db, rows } from '../../core/src/db/client';

/** One POST the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** when it arrived (ms) */
  at: number;
  json: { id: string; event: string; created_at: string; data: Record<string, unknown> };
}

/**
 * A local HTTP server standing in for a webhook receiver (issue 13's tests deliver to one): it
 * records every request, and answers with `respond` (200 unless a test says otherwise), or, for a
 * request `hang` picks, not at all until `release()` (a receiver that hangs).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  respond: (r: Received, n: number) => number = () => 200;
  hang: (r: Received) => boolean = () => false;
  /** requests hanging now (unanswered, still connected), and the most at once since `resetHanging` */
  hanging = 0;
  peakHanging = 0;
  private readonly held = new Set<() => void>();
  private server: Server | null = null;

  /** Answers every hanging request (200). */
  release(): void {
    for (const answer of [...this.held]) answer();
  }

  /** Answers the hanging requests, hangs no more, and starts counting the peak afresh. */
  resetHanging(): void {
    this.hang = () => false;
    this.release();
    this.peakHanging = this.hanging;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        let json: Received['json'];
        try {
          json = JSON.parse(body);
        } catch {
          json = { id: '', event: '', created_at: '', data: {} };
        }
        const r: Received = { path: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
        this.received.push(r);
        if (this.hang(r)) {
          this.hanging += 1;
          this.peakHanging = Math.max(this.peakHanging, this.hanging);
          const settle = () => {
            if (!this.held.delete(answer)) return;
            this.hanging -= 1;
          };
          const answer = () => {
            settle();
            res.end('ok');
          };
          this.held.add(answer);
          // the sender gave up (its timeout): no longer hanging
          res.on('close', settle);
          return;
        }
        res.statusCode = this.respond(r, this.received.length);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    if (!this.server) throw new Error('the receiver is not started');
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  of(event: string): Received[] {
    return this.received.filter((r) => r.json.event === event);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** Checks a delivery as a receiver should: the HMAC of "{timestamp}.{body}" with the secret, and a fresh timestamp. */
export function verifySignature(r: Received, secret: string, maxAgeS = 300): boolean {
  const ts = Number(r.headers['x-wa-timestamp']);
  const sent = String(r.headers['x-wa-signature'] ?? '');
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > maxAgeS) return false;
  const want = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex')}`;
  return sent.length === want.length && timingSafeEqual(Buffer.from(sent), Buffer.from(want));
}

/** An endpoint's deliveries as stored, oldest first. */
export function deliveriesIn(db: Db, endpointId: number) {
  return rows<{ id: number; status: string; attempts: number; error: string | null; event_id: string }>(
    db,
    sql`select id, status, attempts, error, event_id from webhook_deliveries where endpoint_id = ${endpointId} order by id`,
  );
}
