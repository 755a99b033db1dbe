import { expandSpintax, hasSpintax, renderPlaceholders } from '@wa/shared';
import { Shuffle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/button';

/**
 * Account safety: a caption with choices (`{Halo|Hai} {name}`) sends a different text to each
 * target. This shows one of them as a target would get it, and draws another on request.
 */
export function SpintaxPreview({ textWa }: { textWa: string }) {
  const [draw, setDraw] = useState(0);
  if (!hasSpintax(textWa)) {
    return (
      <p className="mt-1.5 text-xs text-gray-500 dark:text-gray-400">
        Tip: variasikan teks dengan {'{Halo|Hai|Selamat pagi}'} agar tiap penerima mendapat teks berbeda.
      </p>
    );
  }
  // `draw` only asks for a new sample; the text is drawn at random each time
  const sample = renderPlaceholders(expandSpintax(textWa, Math.random), { name: 'Budi', phoneNumber: '6281234567890' });
  return (
    <div className="mt-2">
      <div className="mb-1 flex items-center justify-between gap-2">
        <span className="text-xs font-medium text-gray-600 dark:text-gray-400">Contoh pesan ke satu penerima</span>
        <Button size="sm" variant="ghost" onClick={() => setDraw(draw + 1)}>
          <Shuffle size={14} /> Acak lagi
        </Button>
      </div>
      <pre
        key={draw}
        data-testid="spintax-sample"
        className="rounded-lg bg-brand-50 p-3 text-sm whitespace-pre-wrap text-gray-700 dark:bg-brand-500/10 dark:text-gray-300"
      >
        {sample}
      </pre>
    </div>
  );
}
