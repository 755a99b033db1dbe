/**
 * Template captions (§3, §5): the HTML the editor makes is sanitised to a few formatting tags,
 * turned into WhatsApp markup (*bold* _italic_ ~strike~, a link as "text url"), and filled with
 * the {name} and {phoneNumber} placeholders.
 */

const ALLOWED = new Set(['b', 'strong', 'i', 'em', 's', 'strike', 'del', 'a', 'br', 'p', 'div', 'span']);
const DROP_WITH_CONTENT =
  /<(script|style|iframe|object|embed|template|noscript|textarea|title)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<\/?[a-zA-Z][^<>]*>|[<>]|[^<>]+/g;
const SAFE_HREF = /^(https?:|mailto:|tel:)/i;

const escapeText = (s: string) => s.replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function decodeEntities(s: string): string {
  return s
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

function hrefOf(attrs: string): string | null {
  const m = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attrs);
  if (!m) return null;
  // entities and control characters are how "java&#115;cript:" slips past a naive check
  const href = decodeEntities(m[1] ?? m[2] ?? m[3] ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f\s]+/g, '')
    .trim();
  return SAFE_HREF.test(href) ? href : null;
}

/** Keeps only b/strong/i/em/s/strike/del/a[href]/br/p/div/span, without attributes or scripts. */
export function sanitizeCaption(html: string): string {
  const input = String(html ?? '').replace(DROP_WITH_CONTENT, '');
  let out = '';
  for (const token of input.match(TOKEN) ?? []) {
    if (token.startsWith('<!--')) continue;
    if (token === '<' || token === '>') {
      out += escapeText(token);
      continue;
    }
    const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^<>]*)>$/.exec(token);
    if (!tag) {
      out += escapeText(token);
      continue;
    }
    const [, closing, rawName, attrs] = tag;
    const name = rawName.toLowerCase();
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      if (name !== 'br') out += `</${name}>`;
    } else if (name === 'a') {
      const href = hrefOf(attrs);
      out += href ? `<a href="${escapeAttr(href)}">` : '<a>';
    } else out += name === 'br' ? '<br>' : `<${name}>`;
  }
  return out;
}

/** The sanitised caption as WhatsApp markup (§5). */
export function captionToWhatsapp(html: string): string {
  const clean = sanitizeCaption(html);
  let out = '';
  const links: (string | null)[] = [];
  for (const token of clean.match(TOKEN) ?? []) {
    const tag = /^<(\/?)([a-z]+)([^<>]*)>$/.exec(token);
    if (!tag) {
      out += decodeEntities(token);
      continue;
    }
    const [, closing, name, attrs] = tag;
    if (name === 'b' || name === 'strong') out += '*';
    else if (name === 'i' || name === 'em') out += '_';
    else if (name === 's' || name === 'strike' || name === 'del') out += '~';
    else if (name === 'br') out += '\n';
    else if ((name === 'p' || name === 'div') && closing) out += '\n';
    else if (name === 'a') {
      if (!closing) links.push(hrefOf(attrs));
      else {
        const href = links.pop();
        if (href) out += ` ${href}`;
      }
    }
  }
  return out.replace(/\n{3,}/g, '\n\n').trim();
}

/** Fills {name} and {phoneNumber} (§3 caption placeholders). */
export function renderPlaceholders(
  text: string,
  values: { name?: string | null; phoneNumber?: string | null },
): string {
  return text.replace(/\{name\}/g, values.name ?? '').replace(/\{phoneNumber\}/g, values.phoneNumber ?? '');
}
