/**
 * Plain text an admin wrote, shown as written (line breaks kept, never as HTML), with its
 * https:// addresses as links that open in a new tab.
 */
export function LinkedText({ text, className = '', testId }: { text: string; className?: string; testId?: string }) {
  const parts = text.split(/(https:\/\/[^\s<>"']+)/g);
  return (
    <div className={`whitespace-pre-line break-words ${className}`} data-testid={testId}>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
          <a key={i} href={part} target="_blank" rel="noreferrer" className="text-brand-500 underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </div>
  );
}
