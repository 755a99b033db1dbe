// `npm run check:docker` (part of `npm run check`): the container files, checked with what this machine has.
//   1. Dockerfile lint (dockerfile-utils, every finding an error): always.
//   2. `config` of docker-compose.yml on each Compose installed: v2 (`docker compose`) and 1.29
//      (`docker-compose`, Debian's); the file must parse on both. A missing one is said, not failed.
//   3. The image built, and what an operator relies on checked in it (user node, tini, healthcheck,
//      no dev dependencies): where a Docker engine answers, on CI (CI=true) or with DOCKER_BUILD=1.
// tests/deploy/ checks the same files' properties and the Compose schema without any of these tools.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import dockerfileUtils from 'dockerfile-utils';

const { ValidationSeverity, validate } = dockerfileUtils;
const root = path.resolve(import.meta.dirname, '..');
const env = process.env;
let failed = false;
const fail = (msg) => {
  failed = true;
  console.error(`check:docker: ${msg}`);
};
const note = (msg) => console.log(`check:docker: ${msg}`);

/** Runs a command in the repository; its status (null when it could not start) and output. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', timeout: 60_000, ...opts });
  return { status: r.error ? null : r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

// 1. lint
const strict = ValidationSeverity.ERROR;
const findings = validate(readFileSync(path.join(root, 'Dockerfile'), 'utf8'), {
  deprecatedMaintainer: strict,
  directiveCasing: strict,
  emptyContinuationLine: strict,
  instructionCasing: strict,
  instructionCmdMultiple: strict,
  instructionEntrypointMultiple: strict,
  instructionHealthcheckMultiple: strict,
  instructionJSONInSingleQuotes: strict,
  instructionWorkdirRelative: strict,
});
for (const f of findings) {
  // LSP severities: 1 error, 2 warning
  const level = f.severity === 1 ? 'error' : 'warning';
  fail(`Dockerfile:${f.range.start.line + 1}: ${level}: ${f.message}`);
}
if (!findings.length) note('Dockerfile lint: clean');

// 2. compose config, with the one required variable given (the values need not be real)
const composeEnv = { ...env, JWT_SECRET: env.JWT_SECRET || 'check-docker-not-a-secret' };
const composes = [
  { name: 'Compose v2 (docker compose)', cmd: 'docker', args: ['compose'] },
  { name: 'Compose 1.x (docker-compose)', cmd: 'docker-compose', args: [] },
];
for (const c of composes) {
  const version = run(c.cmd, [...c.args, 'version']);
  if (version.status !== 0) {
    note(`${c.name} is not installed: its config check skipped`);
    continue;
  }
  const config = run(c.cmd, [...c.args, '-f', 'docker-compose.yml', 'config', '-q'], { env: composeEnv });
  if (config.status === 0) note(`${c.name}: docker-compose.yml parses`);
  else fail(`${c.name} refuses docker-compose.yml:\n${config.out}`);
}

// 3. the image, where an engine answers
const engine = run('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: 10_000 });
if (engine.status !== 0) {
  note('no Docker engine answers: the image build skipped (the lint and the compose checks ran)');
} else if (env.CI !== 'true' && env.DOCKER_BUILD !== '1') {
  note(`Docker engine ${engine.out} answers: set DOCKER_BUILD=1 to build the image here (CI builds it)`);
} else {
  const tag = 'wa-blaster:check';
  note(`building the image on Docker engine ${engine.out}…`);
  const build = spawnSync('docker', ['build', '-t', tag, '.'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) fail('docker build failed');
  else {
    const inspect = run('docker', ['image', 'inspect', '--format', '{{json .Config}}', tag]);
    const config = inspect.status === 0 ? JSON.parse(inspect.out) : {};
    if (!config.User || ['root', '0'].includes(config.User)) fail(`the image runs as ${config.User || 'root'}`);
    if (!config.Healthcheck?.Test?.length) fail('the image has no HEALTHCHECK');
    if (!(config.Entrypoint ?? []).some((e) => e.includes('tini'))) fail('the image has no init (tini) as ENTRYPOINT');
    const uid = run('docker', ['run', '--rm', tag, 'id', '-u']);
    if (uid.status !== 0 || uid.out === '0') fail(`the container runs as uid ${uid.out}`);
    const deps = run('docker', [
      'run',
      '--rm',
      tag,
      'sh',
      '-c',
      'test -e node_modules/tsx && test ! -e node_modules/vitest && test ! -e web/node_modules/vite && test -f web/dist/index.html',
    ]);
    if (deps.status !== 0)
      fail('the image must hold tsx and the built dashboard, and no dev dependency (vitest, vite)');
    if (!failed) note(`the image builds and runs as uid ${uid.out} under tini, with a healthcheck`);
  }
}

process.exit(failed ? 1 : 0);
