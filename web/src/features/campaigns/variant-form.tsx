import { CAMPAIGN_TEMPLATE_WEIGHT, captionToWhatsapp } from '@wa/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '../../components/alert';
import { FormField } from '../../components/form-field';
import { SaveButton } from '../../components/save-button';
import { StatusSelect } from '../../components/status-select';
import { useSubmit } from '../../lib/use-submit';
import { CaptionEditor } from '../templates/caption-editor';
import { SpintaxPreview } from '../templates/spintax-preview';
import { campaignsApi } from './api';

const labelClass = 'mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400';

/**
 * 'Add variant': the message template form (caption with its WhatsApp preview, media, status; the
 * button section stays hidden as on the template form, §5) plus the variant's weight. The server
 * answers whether it waits for approval (a client's) or is approved at once (an admin's or dev's).
 */
export function VariantForm({ campaignId, onSaved }: { campaignId: number; onSaved(): void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [weight, setWeight] = useState(String(CAMPAIGN_TEMPLATE_WEIGHT.fallback));
  const [status, setStatus] = useState<'active' | 'nonactive'>('active');
  const [done, setDone] = useState<string | null>(null);
  const submit = useSubmit();

  const save = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const form = new FormData();
    const file = fileRef.current?.files?.[0];
    if (file) form.append('file', file);
    form.append('text', text);
    form.append('text_wa', captionToWhatsapp(text));
    form.append('button', '[]');
    form.append('status', status);
    form.append('weight', weight);
    void submit.run(async () => {
      const res = await campaignsApi.createVariant(campaignId, form);
      setText('');
      setWeight(String(CAMPAIGN_TEMPLATE_WEIGHT.fallback));
      if (fileRef.current) fileRef.current.value = '';
      setDone(res.msg);
      onSaved();
    }, 'Error saving the variant');
  };

  return (
    <form onSubmit={save} noValidate className="space-y-4" data-testid="variant-form">
      <h4 className="text-sm font-semibold text-gray-800 dark:text-white/90">Add variant</h4>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      <div>
        <span className={labelClass}>Caption</span>
        <CaptionEditor value={text} onChange={setText} />
      </div>
      <div>
        <span className={labelClass}>Pratinjau WhatsApp</span>
        <pre
          className="rounded-lg bg-gray-50 p-3 text-sm break-words whitespace-pre-wrap text-gray-700 dark:bg-white/5 dark:text-gray-300"
          data-testid="variant-preview"
        >
          {captionToWhatsapp(text) || '-'}
        </pre>
        <SpintaxPreview textWa={captionToWhatsapp(text)} />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <div className="min-w-0">
          <label htmlFor="variant-media" className={labelClass}>
            Media
          </label>
          <input
            id="variant-media"
            ref={fileRef}
            type="file"
            name="media"
            className="block w-full min-w-0 text-sm text-gray-600 dark:text-gray-400"
          />
        </div>
        <FormField
          label="Weight"
          name="weight"
          inputMode="numeric"
          value={weight}
          error={submit.errors.weight}
          hint={`${CAMPAIGN_TEMPLATE_WEIGHT.min}–${CAMPAIGN_TEMPLATE_WEIGHT.max}: its share of the messages`}
          onChange={(e) => {
            setWeight(e.target.value);
            submit.clearError('weight');
          }}
        />
        <StatusSelect id="variant-status" value={status} onChange={setStatus} />
      </div>
      <SaveButton saving={submit.saving} label="Add variant" busyLabel="Saving..." />
    </form>
  );
}
