import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Copy, DockerfileParser } from 'dockerfile-ast';
import { ValidationSeverity, validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

/**
 * What an operator relies on in the image (Dockerfile, .dockerignore), read from the files, so it
 * holds on a machine with no Docker engine: it lints clean, only production dependencies reach the
 * runtime, it runs as an unprivileged user under an init with a healthcheck, its data lives in a
 * volume, and the build never sends secrets, local data or installed packages. `npm run check:docker`
 * builds the image itself where an engine answers.
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every rule of dockerfile-utils as an error: the lint has zero warnings, as Biome does. */
function lintDockerfile(text: string) {
  const error = ValidationSeverity.ERROR;
  return validate(text, {
    deprecatedMaintainer: error,
    directiveCasing: error,
    emptyContinuationLine: error,
    instructionCasing: error,
    instructionCmdMultiple: error,
    instructionEntrypointMultiple: error,
    instructionHealthcheckMultiple: error,
    instructionJSONInSingleQuotes: error,
    instructionWorkdirRelative: error,
  }).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
}

interface Step {
  keyword: string;
  args: string;
  /** COPY --from's stage, if any */
  from: string | null;
}
interface Stage {
  name: string | null;
  steps: Step[];
}

/** The Dockerfile's stages, each with its instructions in order. */
function stages(text: string): Stage[] {
  const out: Stage[] = [];
  for (const i of DockerfileParser.parse(text).getInstructions()) {
    const keyword = i.getKeyword();
    const args = i.getArgumentsContent() ?? '';
    if (keyword === 'FROM') {
      const as = /\bAS\s+(\S+)/i.exec(args);
      out.push({ name: as ? as[1] : null, steps: [] });
      continue;
    }
    const from = i instanceof Copy ? (i.getFromFlag()?.getValue() ?? null) : null;
    out.at(-1)?.steps.push({ keyword, args, from });
  }
  return out;
}

const dockerfile = read('Dockerfile');
const all = stages(dockerfile);
const runtime = all.at(-1) as Stage;
const inRuntime = (keyword: string) => runtime.steps.filter((s) => s.keyword === keyword);

describe('Dockerfile', () => {
  it('passes the Dockerfile lint with no finding', () => {
    expect(lintDockerfile(dockerfile)).toEqual([]);
  });

  it('the lint finds the mistakes it is there for (a second CMD, an unknown HEALTHCHECK flag)', () => {
    const broken = 'FROM node:20\nCMD ["a"]\nHEALTHCHECK --intervl=3s CMD true\nCMD ["b"]\n';
    const found = lintDockerfile(broken);
    expect(found.some((f) => /only be one CMD/.test(f))).toBe(true);
    expect(found.some((f) => /Unknown flag: intervl/.test(f))).toBe(true);
  });

  it('builds in stages and gives the runtime production dependencies only', () => {
    expect(all.length).toBeGreaterThan(1);
    // the runtime installs nothing itself but what --omit=dev allows
    for (const run of inRuntime('RUN')) {
      if (/\bnpm (ci|install|i)\b/.test(run.args)) expect(run.args).toContain('--omit=dev');
    }
    const copied = inRuntime('COPY').filter((c) => c.from !== null);
    expect(copied.length).toBeGreaterThan(0);
    for (const c of copied) {
      const stage = all.find((s) => s.name === c.from);
      expect(stage, `COPY --from=${c.from}`).toBeDefined();
      const installs = (stage as Stage).steps.filter(
        (s) => s.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(s.args),
      );
      const devInstall = installs.some((s) => !s.args.includes('--omit=dev'));
      // from a stage that installed dev dependencies, only the built dashboard may come across
      if (devInstall) expect(c.args, `COPY --from=${c.from} ${c.args}`).toMatch(/^\S*web\/dist\s+\S*web\/dist\/?$/);
      else expect(installs.length, `stage ${c.from} installs with --omit=dev`).toBeGreaterThan(0);
    }
  });

  it('has tsx, which runs the TypeScript at run time, among the production dependencies', () => {
    const pkg = JSON.parse(read('package.json')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(pkg.dependencies?.tsx).toBeDefined();
    expect(pkg.devDependencies?.tsx).toBeUndefined();
  });

  it('runs as an unprivileged user', () => {
    const user = inRuntime('USER').at(-1)?.args.trim();
    expect(user).toBeDefined();
    expect(['root', '0', '0:0', 'root:root']).not.toContain(user);
  });

  it('runs under tini as PID 1, installed in the image', () => {
    const entrypoint = inRuntime('ENTRYPOINT').at(-1)?.args ?? '';
    expect(entrypoint).toMatch(/^\[\s*"\/usr\/bin\/tini"/);
    expect(inRuntime('RUN').some((r) => /apt-get install[^&]*\btini\b/.test(r.args))).toBe(true);
  });

  it('starts the API as node itself, which gets the SIGTERM of a stop (npm would not pass it on)', () => {
    expect(inRuntime('CMD').at(-1)?.args).toMatch(/^\[\s*"node",\s*"scripts\/start\.mjs"\s*\]$/);
  });

  it("checks its health on the API's /api/health", () => {
    const check = inRuntime('HEALTHCHECK').at(-1)?.args ?? '';
    expect(check).toMatch(/^(--\S+\s+)*CMD\b/);
    expect(check).toContain('/api/health');
  });

  it("keeps its data in a volume at /data that the process's user owns", () => {
    const user = inRuntime('USER').at(-1)?.args.trim() ?? 'root';
    expect(inRuntime('VOLUME').map((v) => v.args.trim())).toContain('/data');
    expect(inRuntime('ENV').some((e) => /\bDATA_DIR=\/data\b/.test(e.args))).toBe(true);
    const chown = new RegExp(`chown\\s+(-R\\s+)?${user}(:${user})?\\s+/data\\b`);
    expect(inRuntime('RUN').some((r) => chown.test(r.args))).toBe(true);
  });

  it('brings Chromium for whatsapp-web.js', () => {
    expect(inRuntime('RUN').some((r) => /apt-get install[^&]*\bchromium\b/.test(r.args))).toBe(true);
    expect(inRuntime('ENV').some((e) => /\bCHROME_PATH=\/usr\/bin\/chromium\b/.test(e.args))).toBe(true);
  });
});

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it.each(['.env', 'data', 'data-demo', 'node_modules', '.git'])('keeps %s out of the build', (name) => {
    expect(patterns.some((p) => p === name || p === `${name}/` || p === `/${name}`)).toBe(true);
  });

  it("keeps every package's node_modules out, not only the root's", () => {
    expect(patterns).toContain('**/node_modules');
  });
});
