import { useSyncExternalStore } from 'react';

const isDark = () => document.documentElement.classList.contains('dark');

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/**
 * Whether the page is dark now. The header's theme toggle (useTheme) owns the theme and shows it
 * as the 'dark' class on <html>; components that draw outside Tailwind (the charts) follow that
 * class, so they change with the toggle without sharing its state.
 */
export function useDarkMode(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}
