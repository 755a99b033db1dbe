import { describe, expect, it } from 'vitest';
import { captionToWhatsapp, renderPlaceholders, sanitizeCaption } from './caption';

describe('sanitizeCaption', () => {
  it('keeps the formatting tags and drops their attributes', () => {
    expect(
      sanitizeCaption(
        '<p class="x"><B style="color:red">Halo</B> <em>kak</em><br/><a href="https://wa.me/62812" target="_blank">klik</a></p>',
      ),
    ).toBe('<p><b>Halo</b> <em>kak</em><br><a href="https://wa.me/62812">klik</a></p>');
  });

  it('removes scripts and styles with their content, and event handlers', () => {
    expect(sanitizeCaption('a<script>alert(1)</script>b<STYLE>p{}</STYLE>c')).toBe('abc');
    expect(sanitizeCaption('<img src=x onerror="alert(1)">x')).toBe('x');
    expect(sanitizeCaption('<b onclick="alert(1)" onmouseover=alert(2)>x</b>')).toBe('<b>x</b>');
    expect(sanitizeCaption('<svg><script>alert(1)</script></svg>ok')).toBe('ok');
    expect(sanitizeCaption('<scr<script>ipt>alert(1)</script>')).toBe('&lt;scr');
    expect(sanitizeCaption('<script>never closed')).toBe('');
    expect(sanitizeCaption('<!-- <script>alert(1)</script> -->ok')).toBe('ok');
  });

  it('drops javascript: and data: links, however they are disguised', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java&#115;cript:alert(1)',
      ' javascript:x',
      'data:text/html,x',
      'jav\tascript:x',
    ]) {
      expect(sanitizeCaption(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
    }
    expect(sanitizeCaption(`<a href='mailto:a@b.c'>m</a><a href=tel:+62812>t</a>`)).toBe(
      '<a href="mailto:a@b.c">m</a><a href="tel:+62812">t</a>',
    );
    expect(sanitizeCaption('<a href="https://x.test/?a=1&b="2"">q</a>')).toBe(
      '<a href="https://x.test/?a=1&amp;b=">q</a>',
    );
  });

  it('escapes stray angle brackets in text', () => {
    expect(sanitizeCaption('1 < 2 > 0')).toBe('1 &lt; 2 &gt; 0');
  });
});

describe('captionToWhatsapp', () => {
  it('turns bold, italic, strike and links into WhatsApp markup', () => {
    expect(
      captionToWhatsapp(
        '<p>Halo <b>{name}</b>, <i>promo</i> <s>lama</s></p><p>Cek <a href="https://x.test">di sini</a></p>',
      ),
    ).toBe('Halo *{name}*, _promo_ ~lama~\nCek di sini https://x.test');
    expect(captionToWhatsapp('a<br>b&amp;c &lt;3')).toBe('a\nb&c <3');
    expect(captionToWhatsapp('<script>x</script><strong>ok</strong>')).toBe('*ok*');
  });
});

describe('renderPlaceholders', () => {
  it('fills name and phone number', () => {
    expect(renderPlaceholders('Hai {name} ({phoneNumber}) {name}', { name: 'Budi', phoneNumber: '62812' })).toBe(
      'Hai Budi (62812) Budi',
    );
  });
});
