import { Bold, Italic, Link2, Strikethrough } from 'lucide-react';
import { useEffect, useRef } from 'react';

/**
 * The caption editor (§2, §5): bold, italic, strike and link on a contenteditable area, plus the
 * {name} and {phoneNumber} placeholders. It hands back HTML; the server sanitises it.
 */
export function CaptionEditor({ value, onChange }: { value: string; onChange(html: string): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.innerHTML !== value) ref.current.innerHTML = value;
  }, [value]);
  const run = (command: string, arg?: string) => {
    ref.current?.focus();
    // execCommand is old but still the one tool that edits a selection in every browser
    document.execCommand(command, false, arg);
    onChange(ref.current?.innerHTML ?? '');
  };
  const link = () => {
    const url = window.prompt('URL link', 'https://');
    if (url) run('createLink', url);
  };
  const tool =
    'flex h-9 w-9 items-center justify-center rounded-lg text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-white/5';
  return (
    <div className="rounded-lg border border-gray-300 dark:border-gray-700">
      <div className="flex flex-wrap items-center gap-1 border-b border-gray-200 p-1 dark:border-gray-700">
        <button
          type="button"
          className={tool}
          aria-label="Bold"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => run('bold')}
        >
          <Bold size={16} />
        </button>
        <button
          type="button"
          className={tool}
          aria-label="Italic"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => run('italic')}
        >
          <Italic size={16} />
        </button>
        <button
          type="button"
          className={tool}
          aria-label="Strike"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => run('strikeThrough')}
        >
          <Strikethrough size={16} />
        </button>
        <button type="button" className={tool} aria-label="Link" onMouseDown={(e) => e.preventDefault()} onClick={link}>
          <Link2 size={16} />
        </button>
        <span className="mx-1 h-6 w-px bg-gray-200 dark:bg-gray-700" />
        {['{name}', '{phoneNumber}'].map((p) => (
          <button
            key={p}
            type="button"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => run('insertText', p)}
            className="rounded-lg px-2 py-1 text-xs text-brand-500 hover:bg-brand-50 dark:hover:bg-brand-500/10"
          >
            {p}
          </button>
        ))}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text area has no native element */}
      <div
        ref={ref}
        role="textbox"
        aria-multiline="true"
        aria-label="Caption"
        tabIndex={0}
        contentEditable
        suppressContentEditableWarning
        data-testid="caption-editor"
        onInput={(e) => onChange((e.target as HTMLDivElement).innerHTML)}
        className="min-h-[140px] p-3 text-sm text-gray-800 outline-none dark:text-white/90 [&_a]:text-brand-500 [&_a]:underline"
      />
    </div>
  );
}
