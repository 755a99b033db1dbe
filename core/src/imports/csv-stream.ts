/**
 * A parsed CSV row: its 1-based starting line, its fields, or `tooLong` when it passed the cap, or
 * `badQuote` when a quoted field did not close on its line (only with `multiline: false`).
 */
export interface CsvRow {
  line: number;
  fields: string[];
  tooLong?: boolean;
  badQuote?: boolean;
}

export interface CsvOptions {
  /** characters a row may hold before it is reported as `tooLong` (64 KB) */
  maxRowChars?: number;
  /**
   * whether a quoted field may hold line breaks (RFC 4180, the default). With false, a quote still
   * open at the end of its line makes that one row `badQuote` and the next line starts a new row,
   * so one stray quote costs one row instead of swallowing the rest of the file into a field.
   */
  multiline?: boolean;
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
export async function* parseCsv(chunks: AsyncIterable<string>, opts: CsvOptions = {}): AsyncGenerator<CsvRow> {
  for await (const rows of parseCsvBatches(chunks, opts)) yield* rows;
}

/** As `parseCsv`, but yields the rows of each chunk together: one await per chunk, not per row. */
export async function* parseCsvBatches(chunks: AsyncIterable<string>, opts: CsvOptions = {}): AsyncGenerator<CsvRow[]> {
  const maxRowChars = opts.maxRowChars ?? 64 * 1024;
  const multiline = opts.multiline ?? true;
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
        let end = q === -1 ? n : q;
        if (!multiline) {
          const lf = chunk.indexOf('\n', i);
          const cr = chunk.indexOf('\r', i);
          const br = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
          if (br !== -1 && br < end) end = br;
          if (end === br) {
            // the quote never closed on its line: this row is lost, the next line is a row again
            rows.push({ line: rowLine, fields: [], badQuote: true });
            fields = [];
            field = '';
            rowChars = 0;
            tooLong = false;
            state = FIELD_START;
            line++;
            rowLine = line;
            if (chunk.charCodeAt(br) === CR) skipLF = true;
            i = br + 1;
            continue;
          }
        }
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
  if (state === QUOTED && !multiline) {
    yield [{ line: rowLine, fields: [], badQuote: true }];
  } else if (state !== FIELD_START || field !== '' || fields.length) {
    const row = endRow();
    if (row) yield [row];
  }
}
