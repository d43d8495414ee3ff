import { Component, type ReactNode } from 'react';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { i18next } from '@/i18n';
import { useErrorLog } from '@/settings/error-log';

/** A page that throws while rendering shows a way out instead of a blank frame, and lands in the error log. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    useErrorLog.getState().add({ message: error.message, where: error.stack?.split('\n')[1]?.trim() ?? '' });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Center py="xl">
        <Stack align="center">
          <Title order={3}>{i18next.t('common:errors.crashed')}</Title>
          <Text c="dimmed">{this.state.error.message}</Text>
          <Button onClick={() => window.location.reload()}>{i18next.t('common:errors.reload')}</Button>
        </Stack>
      </Center>
    );
  }
}
