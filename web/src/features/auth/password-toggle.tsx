import { Eye, EyeOff } from 'lucide-react';

/** The show/hide control inside a password field. */
export function PasswordToggle({ shown, onToggle }: { shown: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-label={shown ? 'Hide password' : 'Show password'}
      className="text-gray-500 hover:text-gray-700 dark:text-gray-400"
    >
      {shown ? <EyeOff size={20} /> : <Eye size={20} />}
    </button>
  );
}
