import { CheckCircle2 } from 'lucide-react';
import { Button } from './button';
import { Modal } from './modal';

/** A success message that waits for OK (§8 success dialogs). */
export function SuccessDialog({ message, onOk }: { message: string | null; onOk(): void }) {
  return (
    <Modal open={message !== null} onClose={onOk} title="Berhasil" className="max-w-md text-center">
      <div className="flex flex-col items-center gap-4">
        <CheckCircle2 size={48} className="text-green-500" />
        <p className="text-gray-700 dark:text-gray-300" role="status">
          {message}
        </p>
        <Button onClick={onOk}>OK</Button>
      </div>
    </Modal>
  );
}
