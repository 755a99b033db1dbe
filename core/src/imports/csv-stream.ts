/** A parsed CSV row: its 1-based starting line, its fields, or `tooLong` when it passed the cap. */
export interface CsvRow {
  line: number;
  fields: string[];
  tooLong?: boolean;
}

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

// states of the parser
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3; // a quote inside a quoted field: doubled quote, or the field's end

/**
 * Streams RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF, newlines inside quotes) from
 * text chunks. A row longer than `maxRowChars` is reported as `tooLong` and not held, so one huge
 * line cannot exhaust memory. Blank lines are skipped.
 */
export async function* parseCsv(chunks: AsyncIterable<string>, maxRowChars = 64 * 1024): AsyncGenerator<CsvRow> {
  for await (const rows of parseCsvBatches(chunks, maxRowChars)) yield* rows;
}

/** As `parseCsv`, but yields the rows of each chunk together: one await per chunk, not per row. */
export async function* parseCsvBatches(
  chunks: AsyncIterable<string>,
  maxRowChars = 64 * 1024,
): AsyncGenerator<CsvRow[]> {
  let state = FIELD_START;
  let fields: string[] = [];
  let field = '';
  let rowChars = 0;
  let tooLong = false;
  let line = 1;
  let rowLine = 1;
  let skipLF = false;

  const add = (s: string) => {
    if (tooLong) return;
    rowChars += s.length;
    if (rowChars > maxRowChars) {
      tooLong = true;
      field = '';
      fields = [];
    } else field += s;
  };
  const endField = () => {
    if (!tooLong) fields.push(field);
    field = '';
    state = FIELD_START;
  };
  const endRow = (): CsvRow | null => {
    endField();
    const row: CsvRow | null = tooLong
      ? { line: rowLine, fields: [], tooLong: true }
      : fields.length === 1 && fields[0] === ''
        ? null
        : { line: rowLine, fields };
    fields = [];
    rowChars = 0;
    tooLong = false;
    return row;
  };

  for await (const chunk of chunks) {
    const rows: CsvRow[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      let c = chunk.charCodeAt(i);
      if (skipLF) {
        skipLF = false;
        if (c === LF) {
          i++;
          continue;
        }
      }
      if (state === QUOTED) {
        const q = chunk.indexOf('"', i);
        const end = q === -1 ? n : q;
        const part = chunk.slice(i, end);
        for (let k = part.indexOf('\n'); k !== -1; k = part.indexOf('\n', k + 1)) line++;
        add(part);
        if (q === -1) {
          i = n;
          continue;
        }
        state = QUOTE_IN_QUOTED;
        i = q + 1;
        continue;
      }
      if (state === QUOTE_IN_QUOTED) {
        if (c === QUOTE) {
          add('"');
          state = QUOTED;
          i++;
          continue;
        }
        // the quoted field ended; what follows is handled as in an unquoted field
        state = UNQUOTED;
      }
      if (state === FIELD_START && c === QUOTE) {
        state = QUOTED;
        i++;
        continue;
      }
      // unquoted run up to the next delimiter
      let j = i;
      while (j < n) {
        c = chunk.charCodeAt(j);
        if (c === COMMA || c === LF || c === CR) break;
        j++;
      }
      if (j > i) add(chunk.slice(i, j));
      state = UNQUOTED;
      if (j === n) {
        i = n;
        continue;
      }
      if (c === COMMA) {
        endField();
      } else {
        const row = endRow();
        if (row) rows.push(row);
        line++;
        rowLine = line;
        if (c === CR) skipLF = true;
      }
      i = j + 1;
    }
    if (rows.length) yield rows;
  }
  if (state !== FIELD_START || field !== '' || fields.length) {
    const row = endRow();
    if (row) yield [row];
  }
}
