import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A TCP port nobody listens on right now (the kernel's pick), for a private server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it gives a value; on the deadline throws with `what()` (called then, so it can carry logs). */
export async function waitFor<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms: number,
  what: () => string,
  everyMs = 200,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The newest PostgreSQL server binaries on this machine (Debian keeps them out of PATH), or null. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found ? path.dirname(found) : null;
}

/** Whether `redis-server` can be started from PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).status === 0;
}

/** Whether a TCP connection to 127.0.0.1:port opens within 1 s. */
function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * A PostgreSQL cluster of the test's own: initdb in a temp dir, on a free port of 127.0.0.1 with
 * its socket in the same dir, fsync off. initdb and the server refuse to run as root, so as root
 * (CI) every command runs as the `postgres` OS user, who owns the dir. Stopping and starting it is
 * the fault the scenarios inject; the machine's own cluster is never touched.
 */
export class PrivatePostgres {
  private running = false;
  private constructor(
    readonly bin: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const bin = findPgBin();
    if (!bin) throw new Error('no PostgreSQL server binaries (initdb) under /usr/lib/postgresql/*/bin or on PATH');
    const dir = mkdtempSync(path.join(tmpdir(), 'wa-fault-pg-'));
    const pg = new PrivatePostgres(bin, dir, await freePort());
    if (process.getuid?.() === 0) {
      const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(dir, id('-u'), id('-g'));
    }
    await pg.cmd('initdb', ['-D', pg.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    // appended after initdb's defaults, so these win; no durability is needed for a throwaway cluster
    const conf = [
      "listen_addresses = '127.0.0.1'",
      `port = ${pg.port}`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 200',
      "shared_buffers = '64MB'",
    ];
    // appending keeps the file's owner (root may write the postgres user's file)
    appendFileSync(path.join(pg.dataDir, 'postgresql.conf'), `${conf.join('\n')}\n`);
    return pg;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  get logFile(): string {
    return path.join(this.dir, 'server.log');
  }

  /** The superuser's URL of a database on this cluster (trust auth: no password). */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Runs a binary of the cluster as the OS user that owns it. */
  private async cmd(name: string, args: string[]): Promise<string> {
    const file = path.join(this.bin, name);
    const asRoot = process.getuid?.() === 0;
    const [exe, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    try {
      const { stdout } = await run(exe, argv, { maxBuffer: 8 << 20, timeout: 90_000 });
      return stdout;
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`${name} ${args.join(' ')} failed: ${e.stderr ?? e.message}\n${this.logTail()}`);
    }
  }

  /** Starts the server and resolves once it accepts connections. */
  async start(): Promise<void> {
    await this.cmd('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '60', 'start']);
    this.running = true;
    await waitFor(
      () => this.ready(),
      30_000,
      () => `PostgreSQL ready on ${this.port}\n${this.logTail()}`,
    );
  }

  /** Stops the server: `fast` (clients disconnected, a clean shutdown) or `immediate` (a crash). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.cmd('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    this.running = false;
  }

  /** Stops the server (`fast`, or `immediate`: a crash), keeps it down for `downMs`, and starts it again. */
  async restart(mode: 'fast' | 'immediate' = 'fast', downMs = 0): Promise<void> {
    await this.stop(mode);
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.start();
  }

  /** Whether the server answers pg_isready. */
  async ready(): Promise<boolean> {
    const file = path.join(this.bin, 'pg_isready');
    const exe = existsSync(file) ? file : 'pg_isready';
    try {
      // as the superuser: pg_isready's default (the OS user, root in CI) would only log a FATAL
      await run(
        exe,
        ['-q', '-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', '-d', 'postgres', '-t', '2'],
        {
          timeout: 5000,
        },
      );
      return true;
    } catch {
      return false;
    }
  }

  logTail(chars = 3000): string {
    try {
      return `--- postgres log (tail)\n${readFileSync(this.logFile, 'utf8').slice(-chars)}`;
    } catch {
      return '--- postgres log: none';
    }
  }

  /** Kills the server whatever its state (synchronously, so it also works from an exit handler) and removes its files. */
  destroySync(): void {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    if (existsSync(pidFile)) {
      const asRoot = process.getuid?.() === 0;
      const ctl = path.join(this.bin, 'pg_ctl');
      const args = ['-D', this.dataDir, '-m', 'immediate', '-w', '-t', '20', 'stop'];
      spawnSync(asRoot ? 'runuser' : ctl, asRoot ? ['-u', 'postgres', '--', ctl, ...args] : args, { timeout: 30_000 });
      // pg_ctl failed (a half-dead server): the postmaster's pid is the first line
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        if (pid > 0) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    }
    this.running = false;
    rmSync(this.dir, { recursive: true, force: true });
  }

  get isRunning(): boolean {
    return this.running;
  }
}

/**
 * A Redis server of the test's own on a free port: no persistence, so a restart is an empty Redis
 * (what a crashed cache without AOF comes back as). Stopped with SIGTERM (SIGKILL after 5 s) and
 * started again on the same port.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private out = '';
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivateRedis> {
    return new PrivateRedis(mkdtempSync(path.join(tmpdir(), 'wa-fault-redis-')), await freePort());
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('redis-server already running');
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const collect = (d: Buffer) => {
      this.out = (this.out + d.toString()).slice(-20_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.child = child;
    await waitFor(
      () => this.ping(),
      15_000,
      () => `redis-server on ${this.port}\n${this.logTail()}`,
      100,
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(killed);
    this.child = null;
    // the port must be closed before the scenario counts the outage
    await waitFor(
      async () => !(await tcpOpen(this.port)),
      5000,
      () => `redis port ${this.port} closed`,
      100,
    );
  }

  /** Whether the server answers PING with PONG. */
  ping(): Promise<boolean> {
    return new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: this.port });
      let got = '';
      const done = (ok: boolean) => {
        s.destroy();
        resolve(ok);
      };
      s.setTimeout(1000, () => done(false));
      s.once('connect', () => s.write('PING\r\n'));
      s.on('data', (d) => {
        got += d.toString();
        if (got.includes('\r\n')) done(got.startsWith('+PONG'));
      });
      s.once('error', () => done(false));
    });
  }

  logTail(chars = 2000): string {
    return `--- redis-server output (tail)\n${this.out.slice(-chars)}`;
  }

  destroySync(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
    rmSync(this.dir, { recursive: true, force: true });
  }

  get isRunning(): boolean {
    return this.child !== null;
  }
}
