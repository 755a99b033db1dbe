import { Button } from './button';

/** A form's submit button: 'Menyimpan...' (or `busyLabel`) and disabled while the save is on its way (§2). */
export function SaveButton({
  saving,
  label = 'Simpan',
  busyLabel = 'Menyimpan...',
  disabled = false,
  className,
}: {
  saving: boolean;
  label?: string;
  busyLabel?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Button type="submit" disabled={saving || disabled} className={className}>
      {saving ? busyLabel : label}
    </Button>
  );
}
