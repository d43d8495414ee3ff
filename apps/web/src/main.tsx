import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '@/i18n';
import { installErrorLog } from '@/settings/error-log';
import { App } from '@/app/App';
import { queryClient } from '@/app/query-client';
import { session } from '@/auth/session-store';
import { useTags } from '@/settings/tags-store';

installErrorLog();
// Visited tabs and cached answers belong to one user: they go when the session ends or changes hands.
// Calls still in flight are cancelled, so none of them answers into the next page (the login page) with an error.
session.onReset(() => {
  useTags.getState().closeAll();
  void queryClient.cancelQueries();
  queryClient.clear();
});
// After a new release, a tab opened before it asks for chunks that no longer exist: load the new release instead,
// once (a second failure within a minute is left to the error log rather than reloading in a loop).
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('reloadedForRelease') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('reloadedForRelease', String(Date.now()));
  window.location.reload();
});
void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
