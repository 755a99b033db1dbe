/**
 * Spintax: `{Halo|Hai|Selamat pagi} {name}` becomes one of the choices per message, so a blast
 * does not send the same text a thousand times (identical bulk text is a ban trigger). Choices
 * nest (`{Halo|Hai {kak|bos}}`); braces without a `|` are placeholders and stay as they are.
 */

/** An innermost group with at least one `|`. */
const GROUP = /\{([^{}|]*(?:\|[^{}]*)+)\}/;

/** Expands every choice group of `text`, drawing with `random` (in [0, 1)). */
export function expandSpintax(text: string, random: () => number): string {
  let out = text;
  // at most one pass per group: a text of n characters has fewer than n groups
  for (let guard = out.length; guard > 0; guard--) {
    const m = GROUP.exec(out);
    if (!m) break;
    const choices = m[1].split('|');
    const pick = choices[Math.min(choices.length - 1, Math.floor(random() * choices.length))];
    out = out.slice(0, m.index) + pick + out.slice(m.index + m[0].length);
  }
  return out;
}

/** Whether `text` has choices to expand (the template form shows a preview then). */
export function hasSpintax(text: string): boolean {
  return GROUP.test(text);
}

/** A small seeded PRNG (mulberry32): the same seed gives the same message, so a send is repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
