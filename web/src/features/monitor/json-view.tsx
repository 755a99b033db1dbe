import { ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { type EntryRange, entriesOf, rangeLabel, rangesOf, type ViewType } from './json-ranges';

/**
 * The monitor's three ways to show a JSON value (§2 Monitor): raw text, an expandable viewer with
 * braces and typed values, and a tree. Both expandable views group a collection longer than 50
 * entries into ranges ([0…49], [50…99], …) that open on demand.
 */
export function JsonView({ value, type }: { value: unknown; type: ViewType }) {
  if (type === 'string') {
    return (
      <pre
        data-testid="json-raw"
        className="overflow-x-auto rounded-xl bg-gray-50 p-3 sm:p-4 font-mono text-xs leading-5 break-all whitespace-pre-wrap text-gray-800 dark:bg-gray-900 dark:text-gray-200"
      >
        {JSON.stringify(value, null, 2)}
      </pre>
    );
  }
  const skin: Skin = type === 'JSONTree' ? 'tree' : 'viewer';
  return (
    <div
      data-testid={skin === 'tree' ? 'json-tree' : 'json-viewer'}
      className={
        skin === 'tree'
          ? 'overflow-x-auto rounded-xl bg-[#002b36] p-3 sm:p-4 font-mono text-xs leading-6 text-[#93a1a1]'
          : 'overflow-x-auto rounded-xl border border-gray-200 bg-white p-3 sm:p-4 font-mono text-xs leading-6 text-gray-800 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-200'
      }
    >
      <Node name={skin === 'tree' ? 'root' : null} value={value} depth={0} skin={skin} />
    </div>
  );
}

type Skin = 'viewer' | 'tree';

/** The viewer opens the first two levels, the tree only its root. */
const openAtStart = (skin: Skin, depth: number) => (skin === 'viewer' ? depth < 2 : depth === 0);

const isCollection = (v: unknown): v is object => typeof v === 'object' && v !== null;

function Node({ name, value, depth, skin }: { name: string | null; value: unknown; depth: number; skin: Skin }) {
  if (isCollection(value)) return <CollectionNode name={name} value={value} depth={depth} skin={skin} />;
  return (
    <div className="flex flex-wrap gap-x-1.5 pl-5">
      {name !== null && <Key name={name} skin={skin} />}
      <Scalar value={value} skin={skin} />
    </div>
  );
}

function Key({ name, skin }: { name: string; skin: Skin }) {
  return skin === 'tree' ? (
    <span className="shrink-0 text-[#268bd2]">{name}:</span>
  ) : (
    <span className="shrink-0 text-purple-700 dark:text-purple-300">"{name}":</span>
  );
}

function Scalar({ value, skin }: { value: unknown; skin: Skin }) {
  const tree = skin === 'tree';
  if (typeof value === 'string') {
    return (
      <span className={`break-all ${tree ? 'text-[#859900]' : 'text-green-700 dark:text-green-400'}`}>"{value}"</span>
    );
  }
  if (typeof value === 'number') {
    return <span className={tree ? 'text-[#d33682]' : 'text-blue-700 dark:text-blue-400'}>{value}</span>;
  }
  if (typeof value === 'boolean') {
    return <span className={tree ? 'text-[#cb4b16]' : 'text-orange-600 dark:text-orange-400'}>{String(value)}</span>;
  }
  return <span className={tree ? 'text-[#657b83]' : 'text-gray-400'}>{value === null ? 'null' : 'undefined'}</span>;
}

function Toggle({
  open,
  onClick,
  skin,
  children,
}: {
  open: boolean;
  onClick(): void;
  skin: Skin;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      onClick={onClick}
      className={`flex max-w-full min-w-0 items-center gap-1.5 rounded text-left ${
        skin === 'tree' ? 'hover:bg-white/5' : 'hover:bg-gray-100 dark:hover:bg-white/5'
      }`}
    >
      <ChevronRight
        size={14}
        className={`shrink-0 transition-transform ${open ? 'rotate-90' : ''} ${skin === 'tree' ? 'text-[#586e75]' : 'text-gray-400'}`}
      />
      {children}
    </button>
  );
}

function CollectionNode({
  name,
  value,
  depth,
  skin,
}: {
  name: string | null;
  value: object;
  depth: number;
  skin: Skin;
}) {
  const [open, setOpen] = useState(() => openAtStart(skin, depth));
  const entries = entriesOf(value);
  const isArray = Array.isArray(value);
  const [lb, rb] = isArray ? ['[', ']'] : ['{', '}'];
  const count = entries.length;
  const summary =
    skin === 'tree'
      ? `${lb}${rb} ${count} ${isArray ? (count === 1 ? 'item' : 'items') : count === 1 ? 'key' : 'keys'}`
      : `${count} ${count === 1 ? 'item' : 'items'}`;
  return (
    <div data-count={count}>
      <Toggle open={open} onClick={() => setOpen((o) => !o)} skin={skin}>
        {name !== null && <Key name={name} skin={skin} />}
        {skin === 'viewer' && <span>{open ? lb : `${lb}…${rb}`}</span>}
        <span className={`shrink-0 italic ${skin === 'tree' ? 'text-[#586e75]' : 'text-gray-400'}`}>{summary}</span>
      </Toggle>
      {open && (
        <>
          <Entries entries={entries} from={0} to={count - 1} depth={depth} skin={skin} />
          {skin === 'viewer' && <div className="pl-5">{rb}</div>}
        </>
      )}
    </div>
  );
}

/** Entries `from..to` one level down: as they are, or as ranges when there are more than 50. */
function Entries({
  entries,
  from,
  to,
  depth,
  skin,
}: {
  entries: [string, unknown][];
  from: number;
  to: number;
  depth: number;
  skin: Skin;
}) {
  const ranges = rangesOf(from, to);
  const guide = skin === 'tree' ? 'border-l border-[#073642]' : 'border-l border-gray-100 dark:border-gray-800';
  return (
    <div className={`ml-[7px] pl-2 ${guide}`}>
      {ranges
        ? ranges.map((r) => <RangeNode key={r.from} range={r} entries={entries} depth={depth} skin={skin} />)
        : entries
            .slice(from, to + 1)
            .map(([k, v]) => <Node key={k} name={k} value={v} depth={depth + 1} skin={skin} />)}
    </div>
  );
}

function RangeNode({
  range,
  entries,
  depth,
  skin,
}: {
  range: EntryRange;
  entries: [string, unknown][];
  depth: number;
  skin: Skin;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div data-range={`${range.from}-${range.to}`}>
      <Toggle open={open} onClick={() => setOpen((o) => !o)} skin={skin}>
        <span className={skin === 'tree' ? 'text-[#b58900]' : 'text-gray-500 dark:text-gray-400'}>
          {rangeLabel(range)}
        </span>
      </Toggle>
      {open && <Entries entries={entries} from={range.from} to={range.to} depth={depth} skin={skin} />}
    </div>
  );
}
