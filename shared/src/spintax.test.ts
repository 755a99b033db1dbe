import { describe, expect, it } from 'vitest';
import { renderPlaceholders } from './caption';
import { expandSpintax, hasSpintax, seededRandom } from './spintax';

describe('expandSpintax', () => {
  it('picks one choice per group and leaves placeholders alone', () => {
    expect(expandSpintax('{Halo|Hai|Selamat pagi} {name}', () => 0)).toBe('Halo {name}');
    expect(expandSpintax('{Halo|Hai|Selamat pagi} {name}', () => 0.99)).toBe('Selamat pagi {name}');
    expect(expandSpintax('{Halo|Hai} {name}, {phoneNumber}', () => 0.5)).toBe('Hai {name}, {phoneNumber}');
  });

  it('nests, allows empty choices, and keeps text without groups as it is', () => {
    expect(expandSpintax('{Halo {kak|bos}|Hai}!', () => 0)).toBe('Halo kak!');
    expect(expandSpintax('Promo{| hari ini}', () => 0)).toBe('Promo');
    expect(expandSpintax('Promo{| hari ini}', () => 0.9)).toBe('Promo hari ini');
    expect(expandSpintax('*Tebal* {name} {x}', () => 0.5)).toBe('*Tebal* {name} {x}');
    expect(hasSpintax('{a|b}')).toBe(true);
    expect(hasSpintax('{name}')).toBe(false);
  });

  it('varies the text across messages and repeats it for the same seed', () => {
    const text = '{Halo|Hai|Selamat pagi} {name}, {ada promo|promo baru} untuk {kamu|Anda}';
    const made = new Set(Array.from({ length: 50 }, (_, i) => expandSpintax(text, seededRandom(i))));
    expect(made.size).toBeGreaterThan(5);
    expect(expandSpintax(text, seededRandom(7))).toBe(expandSpintax(text, seededRandom(7)));
    expect(renderPlaceholders(expandSpintax(text, seededRandom(7)), { name: 'Budi' })).toMatch(/Budi/);
  });
});
