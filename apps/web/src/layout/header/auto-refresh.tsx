import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAutoRefresh } from '@/settings/auto-refresh';
import { useSession } from '@/auth/session-store';

/**
 * While auto refresh is on, the current page's queries run again every interval (spec section 9). It pauses once
 * the server has ended the session, so a user who chose to stay on the page is not asked again every interval.
 */
export function AutoRefresh() {
  const queryClient = useQueryClient();
  const { isAutoRefresh, intervalTime } = useAutoRefresh();
  const ended = useSession((s) => s.ended);
  useEffect(() => {
    if (!isAutoRefresh || ended) return;
    const timer = window.setInterval(() => void queryClient.invalidateQueries({ type: 'active' }), intervalTime * 1000);
    return () => window.clearInterval(timer);
  }, [isAutoRefresh, intervalTime, ended, queryClient]);
  return null;
}
