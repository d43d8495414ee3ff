import { create } from 'zustand';

export interface ClientError {
  message: string;
  where: string;
  url: string;
  time: number;
}

const MAX_ENTRIES = 100;

interface ErrorLog {
  entries: ClientError[];
  add: (entry: Omit<ClientError, 'time' | 'url'>) => void;
  clear: () => void;
}

export const useErrorLog = create<ErrorLog>((set) => ({
  entries: [],
  add: (entry) => set((s) => ({ entries: [{ ...entry, url: window.location.pathname, time: Date.now() }, ...s.entries].slice(0, MAX_ENTRIES) })),
  clear: () => set({ entries: [] }),
}));

/** Spec section 9: the error log is on in production builds. */
export const ERROR_LOG_ENABLED = import.meta.env.PROD;

/** Collects uncaught errors and rejected promises of the page, so the navbar can show them. */
export function installErrorLog(): void {
  if (!ERROR_LOG_ENABLED) return;
  const { add } = useErrorLog.getState();
  window.addEventListener('error', (event) => {
    add({ message: event.message || String(event.error), where: event.filename ? `${event.filename}:${event.lineno}` : '' });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    // Refused API calls already told the user; only programming errors belong in this log.
    if (reason instanceof Error && reason.name === 'ApiError') return;
    add({
      message: reason instanceof Error ? reason.message : String(reason),
      where: reason instanceof Error ? (reason.stack?.split('\n')[1]?.trim() ?? '') : '',
    });
  });
}
