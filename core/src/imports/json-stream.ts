/** Thrown when an uploaded file is not what it claims to be; becomes a 400 with its message. */
export class ImportFileError extends Error {}

export interface JsonItem {
  /** 1-based position in the array */
  index: number;
  value: unknown;
  tooLong?: boolean;
}

/**
 * Streams the elements of a top-level JSON array from text chunks, parsing one element at a time
 * so a file of any size is never held whole. An element over `maxItemChars` is reported as
 * `tooLong`. A file that is not a JSON array, or is cut or broken, throws ImportFileError.
 */
export async function* parseJsonArray(
  chunks: AsyncIterable<string>,
  maxItemChars = 64 * 1024,
): AsyncGenerator<JsonItem> {
  let started = false;
  let ended = false;
  let depth = 0; // nesting inside the current element
  let inString = false;
  let escaped = false;
  let item = '';
  let itemLen = 0;
  let tooLong = false;
  let index = 0;
  let expectValue = true; // after '[' or ','

  const finish = (): JsonItem | null => {
    const text = item.trim();
    item = '';
    const len = itemLen;
    itemLen = 0;
    if (tooLong) {
      tooLong = false;
      return { index, value: null, tooLong: true };
    }
    if (text === '') {
      if (len === 0 && index === 0) return null;
      throw new ImportFileError(`The JSON file is broken: an empty element at position ${index + 1}.`);
    }
    try {
      return { index, value: JSON.parse(text) };
    } catch {
      throw new ImportFileError(`The JSON file is broken at element ${index}.`);
    }
  };

  for await (const chunk of chunks) {
    const out: JsonItem[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (!started) {
        if (c === '[') {
          started = true;
          start = i + 1;
        } else if (c === '\ufeff' || c === ' ' || c === '\n' || c === '\r' || c === '\t') {
          start = i + 1;
        } else {
          throw new ImportFileError('The JSON file must hold an array: [ {...}, {...} ].');
        }
        continue;
      }
      if (ended) {
        if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
          throw new ImportFileError('The JSON file has text after its closing ].');
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') {
        inString = true;
        expectValue = false;
      } else if (c === '{' || c === '[') {
        depth++;
        expectValue = false;
      } else if (c === '}' || c === ']') {
        if (depth === 0) {
          if (c === '}') throw new ImportFileError('The JSON file is broken: an unexpected }.');
          // the closing ] of the array
          const part = chunk.slice(start, i);
          itemLen += part.length;
          if (!tooLong) item += part;
          if (item.trim() === '' && expectValue && index > 0) {
            throw new ImportFileError('The JSON file is broken: a trailing comma before ].');
          }
          if (item.trim() !== '' || tooLong) {
            index++;
            const r = finish();
            if (r) out.push(r);
          }
          ended = true;
          start = i + 1;
          continue;
        }
        depth--;
      } else if (c === ',' && depth === 0) {
        const part = chunk.slice(start, i);
        itemLen += part.length;
        if (!tooLong) item += part;
        index++;
        const r = finish();
        if (r) out.push(r);
        expectValue = true;
        start = i + 1;
        continue;
      } else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
        expectValue = false;
      }
      if (!tooLong && itemLen + (i - start) > maxItemChars) {
        tooLong = true;
        item = '';
      }
    }
    if (started && !ended && start < chunk.length) {
      const part = chunk.slice(start);
      itemLen += part.length;
      if (!tooLong) {
        item += part;
        if (itemLen > maxItemChars) {
          tooLong = true;
          item = '';
        }
      }
    }
    for (const r of out) yield r;
  }
  if (!started) throw new ImportFileError('The file is empty.');
  if (!ended) throw new ImportFileError('The JSON file is cut off: the array never closes.');
}
