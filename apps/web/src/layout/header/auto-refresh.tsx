import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAutoRefresh } from '@/settings/auto-refresh';

/** While auto refresh is on, the current page's queries run again every interval (spec section 9). */
export function AutoRefresh() {
  const queryClient = useQueryClient();
  const { isAutoRefresh, intervalTime } = useAutoRefresh();
  useEffect(() => {
    if (!isAutoRefresh) return;
    const timer = window.setInterval(() => void queryClient.invalidateQueries({ type: 'active' }), intervalTime * 1000);
    return () => window.clearInterval(timer);
  }, [isAutoRefresh, intervalTime, queryClient]);
  return null;
}
