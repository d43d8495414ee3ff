import { create } from 'zustand';

/** Spec section 9: off, 10, 15, 30 or 60 seconds. */
export const REFRESH_INTERVALS = [10, 15, 30, 60] as const;

/** Kept under the spec's own local-storage keys, isAutoRefresh and intervalTime. */
function read(): { isAutoRefresh: boolean; intervalTime: number } {
  const interval = Number(localStorage.getItem('intervalTime'));
  const valid = (REFRESH_INTERVALS as readonly number[]).includes(interval);
  return { isAutoRefresh: valid && localStorage.getItem('isAutoRefresh') === 'true', intervalTime: valid ? interval : REFRESH_INTERVALS[0] };
}

interface AutoRefresh {
  isAutoRefresh: boolean;
  intervalTime: number;
  /** null turns auto refresh off. */
  choose: (seconds: number | null) => void;
}

export const useAutoRefresh = create<AutoRefresh>((set) => ({
  ...read(),
  choose: (seconds) => {
    const isAutoRefresh = seconds !== null;
    localStorage.setItem('isAutoRefresh', String(isAutoRefresh));
    if (seconds !== null) localStorage.setItem('intervalTime', String(seconds));
    set(isAutoRefresh ? { isAutoRefresh, intervalTime: seconds } : { isAutoRefresh });
  },
}));
