// `npm run typecheck`: `tsc --noEmit` over every package with TypeScript 7, the native compiler
// (`typescript-native`, an alias of typescript@7): it checks the same language as the 5.9 that the
// tools and editors import (TypeScript 7 has no compiler API, so `typescript` stays 5.9 for them) in
// about a third of the CPU time: 20 CPU-seconds against 59 for the three programs on CI's two cores.
// The five Node packages share their options, so one program checks them together
// (tsconfig.node.json); web and tests have their own libraries (the DOM). The three run at once,
// the output of each printed whole when it ends. Fails if any fails.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/typescript-native/bin/tsc');
const projects = ['tsconfig.node.json', 'web', 'tests'];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => {
      if (out.trim()) process.stdout.write(`${out.trimEnd()}\n`);
      if (code !== 0) console.error(`tsc -p ${project}: failed`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(projects.map(check));
process.exit(results.every(Boolean) ? 0 : 1);
