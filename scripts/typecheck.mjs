// `npm run typecheck`: `tsc --noEmit` over every package, as many at once as the machine has cores
// (each tsc is one thread), the output of each printed whole when it ends. Fails if any fails. The
// five Node packages share their options, so one program checks them together (tsconfig.node.json:
// each file once, where a tsc per package checked shared/ and core/ again in each); web and tests
// have their own libraries (the DOM).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
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

const queue = [...projects];
const lanes = Array.from({ length: Math.min(availableParallelism(), projects.length) }, async () => {
  let ok = true;
  for (let p = queue.shift(); p; p = queue.shift()) ok = (await check(p)) && ok;
  return ok;
});
process.exit((await Promise.all(lanes)).every(Boolean) ? 0 : 1);
