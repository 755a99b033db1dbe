import { describe, expect, it } from 'vitest';
import { originAllowed } from './hub-origin';

describe('originAllowed', () => {
  it('without PUBLIC_URL: the page must be of the host the socket connects to', () => {
    const at = (origin: string | undefined, host = 'blast.example.com') => originAllowed({ origin, host }, []);
    expect(at('https://blast.example.com')).toBe(true);
    expect(at('http://blast.example.com')).toBe(true);
    expect(at('https://blast.example.com', 'Blast.Example.com')).toBe(true);
    expect(at('http://localhost:5173', 'localhost:5173')).toBe(true);
    expect(at('http://localhost:5173', 'localhost:3000')).toBe(false);
    expect(at('https://evil.example')).toBe(false);
    expect(at('https://blast.example.com.evil.example')).toBe(false);
    expect(at('null')).toBe(false);
    expect(at('chrome-extension://abcdef')).toBe(false);
    expect(originAllowed({ origin: 'https://blast.example.com' }, [])).toBe(false);
    // no Origin: no browser (a script), let through to the token check
    expect(at(undefined)).toBe(true);
  });

  it('with PUBLIC_URL: its origins exactly, whatever the Host says', () => {
    const origins = ['https://blast.example.com'];
    const at = (origin: string | undefined, host = 'api:3000') => originAllowed({ origin, host }, origins);
    expect(at('https://blast.example.com')).toBe(true);
    expect(at('http://blast.example.com')).toBe(false);
    expect(at('https://blast.example.com:8443')).toBe(false);
    expect(at('http://api:3000')).toBe(false);
    expect(at(undefined)).toBe(true);
  });
});
