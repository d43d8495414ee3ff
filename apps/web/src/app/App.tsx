import { lazy, Suspense, useEffect, useMemo } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { consumeLanguageSwitched } from '@/i18n';
import { notifySuccess } from '@/components/notify';
import { useSettings } from '@/settings/settings-store';
import { buildTheme } from './theme';
import { queryClient } from './query-client';
import { router } from './router';

// The toast container (and its transitions) loads beside the first page; toasts shown before it arrives wait in
// the notifications store and appear as soon as it mounts.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

export function App() {
  const { t } = useTranslation();
  const themeColor = useSettings((s) => s.themeColor);
  const size = useSettings((s) => s.size);
  const theme = useMemo(() => buildTheme(themeColor, size), [themeColor, size]);

  useEffect(() => {
    // Spec section 1: after choosing a language the page reloads and confirms the switch.
    if (consumeLanguageSwitched()) notifySuccess(t('messages:switchLanguageSuccess'));
  }, [t]);

  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <ModalsProvider>
        <Suspense fallback={null}>
          <Notifications position="top-right" limit={5} zIndex={4000} />
        </Suspense>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ModalsProvider>
    </MantineProvider>
  );
}
