import { captionToWhatsapp, type TemplateDto } from '@wa/shared';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { StatusSelect } from '../../components/status-select';
import { useSubmit } from '../../lib/use-submit';
import { templatesApi } from './api';
import { CaptionEditor } from './caption-editor';
import { SpintaxPreview } from './spintax-preview';
import { MediaPreview } from './templates-page';

/** /message/create and /message/edit?id= (§2): the manual form, and on create a JSON upload. */
export function TemplateFormPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const fileRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [status, setStatus] = useState<'active' | 'nonactive'>('active');
  const [media, setMedia] = useState<string | null>(null);
  // the button section is hidden in the UI (§5): an edit sends the template's buttons back unchanged
  const [buttons, setButtons] = useState<TemplateDto['button']>([]);
  const submit = useSubmit();
  const { setError } = submit;
  const [importMsg, setImportMsg] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    if (!id) return;
    templatesApi
      .get(id)
      .then(({ message }) => {
        setText(message.text);
        setStatus(message.status);
        setMedia(message.media);
        setButtons(message.button ?? []);
      })
      .catch((err) => setError(`Error: ${errorText(err, 'Error fetching Template')}`));
  }, [id, setError]);

  const save = (e: FormEvent) => {
    e.preventDefault();
    const form = new FormData();
    const file = fileRef.current?.files?.[0];
    if (file) form.append('file', file);
    form.append('text', text);
    form.append('text_wa', captionToWhatsapp(text));
    // the server checks the buttons whatever is sent (§5)
    form.append('button', JSON.stringify(buttons));
    form.append('status', status);
    void submit.run(async () => {
      if (id) await templatesApi.update(id, form);
      else await templatesApi.create(form);
      navigate(-1);
    }, 'Error saving template message');
  };

  const importJson = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setImportMsg(null);
    const file = (e.currentTarget.elements.namedItem('file') as HTMLInputElement).files?.[0];
    if (!file) return setImportMsg({ ok: false, text: 'File is required.' });
    if (!/\.json$/i.test(file.name)) return setImportMsg({ ok: false, text: 'Only .json files are accepted.' });
    try {
      const res = await templatesApi.import(file);
      setImportMsg({
        ok: true,
        text: `Total ${res.created.length} template berhasil disimpan, ${res.skipped.length} dilewatkan.`,
      });
    } catch (err) {
      setImportMsg({ ok: false, text: errorText(err, 'Error importing File') });
    }
  };

  return (
    <>
      <PageBreadcrumb title={id ? 'Edit Template Pesan' : 'Tambah Template Pesan'} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <Card className="xl:col-span-2">
          <form onSubmit={save} className="space-y-4">
            {submit.error && <Alert tone="error">{submit.error}</Alert>}
            <div>
              <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">Caption</span>
              <CaptionEditor value={text} onChange={setText} />
            </div>
            <div>
              <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
                Pratinjau WhatsApp
              </span>
              <pre
                className="rounded-lg bg-gray-50 p-3 text-sm whitespace-pre-wrap text-gray-700 dark:bg-white/5 dark:text-gray-300"
                data-testid="wa-preview"
              >
                {captionToWhatsapp(text) || '-'}
              </pre>
              <SpintaxPreview textWa={captionToWhatsapp(text)} />
            </div>
            <div>
              <label htmlFor="media" className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
                Media
              </label>
              {media && (
                <div className="mb-2">
                  <MediaPreview url={media} />
                </div>
              )}
              <input
                id="media"
                ref={fileRef}
                type="file"
                name="media"
                className="block w-full text-sm text-gray-600 dark:text-gray-400"
              />
            </div>
            <StatusSelect id="status" value={status} onChange={setStatus} />
            <SaveButton saving={submit.saving} />
          </form>
        </Card>
        {!id && (
          <Card>
            <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Upload JSON</h3>
            <form onSubmit={importJson} className="space-y-4" data-testid="template-import">
              <input
                type="file"
                name="file"
                accept=".json"
                className="block w-full text-sm text-gray-600 dark:text-gray-400"
              />
              <Button type="submit" variant="outline">
                Upload File
              </Button>
              {importMsg && <Alert tone={importMsg.ok ? 'success' : 'error'}>{importMsg.text}</Alert>}
            </form>
          </Card>
        )}
      </div>
    </>
  );
}
