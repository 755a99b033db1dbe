// Applies the stored theme before the first paint, so a dark page never flashes white. A file of
// its own, not an inline script: the dashboard's Content-Security-Policy runs no inline script.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
} catch {}
