import { Anchor, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { TerminalRow } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { NetworkBadge } from '@/features/lighting/lamp-badges';
import { useLiveTerminals, useTerminal } from './api';
import { PlayingCell, TerminalStatusBadge } from './terminal-badges';

const route = getRouteApi('/_auth/_shell/broadcastManage/terminalDetail');

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** One terminal's fields and live state (status, what it plays, volumes, last report). */
function TerminalFields({ terminal }: { terminal: TerminalRow }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`broadcast:fields.${key}`);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      <Field label={f('terminalName')}>{terminal.terminalName}</Field>
      <Field label={f('terminalId')}>{terminal.terminalId}</Field>
      <Field label={f('status')} testId="terminal-detail-status">
        <Group gap="xs">
          <TerminalStatusBadge status={terminal.status} />
          <NetworkBadge networkStatus={terminal.networkStatus} />
        </Group>
      </Field>
      <Field label={f('playing')}>
        <PlayingCell terminal={terminal} />
      </Field>
      <Field label={f('since')}>{terminal.playing ? new Date(terminal.playing.since).toLocaleString() : '—'}</Field>
      <Field label={f('terminalIP')}>{terminal.terminalIP}</Field>
      <Field label={f('broadcastVolume')}>{terminal.broadcastVolume} %</Field>
      <Field label={f('interphoneVolume')}>{terminal.interphoneVolume} %</Field>
      <Field label={f('callCode')}>{terminal.callCode || '—'}</Field>
      <Field label={f('isDefault')}>{t(terminal.isDefault ? 'broadcast:list.yes' : 'broadcast:list.no')}</Field>
      <Field label={f('priority')}>{terminal.priority}</Field>
      <Field label={f('relayServer')}>{terminal.relayServer || '—'}</Field>
      <Field label={f('terminalType')}>{terminal.terminalType || '—'}</Field>
      <Field label={f('region')}>{terminal.regionName ?? '—'}</Field>
      <Field label={f('pole')}>{terminal.poleCode ? `${terminal.poleName ?? ''} (${terminal.poleCode})` : '—'}</Field>
      <Field label={f('version')}>{terminal.softwareVersion || '—'}</Field>
      <Field label={f('reportedAt')}>{terminal.reportedAt ? new Date(terminal.reportedAt).toLocaleString() : '—'}</Field>
    </SimpleGrid>
  );
}

/** /broadcastManage/terminalDetail?id= (hidden): one terminal, live. */
export function TerminalDetailPage() {
  const { t } = useTranslation();
  const { id } = route.useSearch();
  const terminal = useTerminal(id ?? 0);
  useLiveTerminals();
  return (
    <PagePanel
      title={terminal.data ? t('broadcast:detail.title', { name: terminal.data.terminalName }) : t('common:route.terminalDetail')}
      actions={
        <Anchor component={Link} to="/broadcastManage/terminalManagement" size="sm">
          {t('broadcast:detail.back')}
        </Anchor>
      }
    >
      {terminal.data ? (
        <TerminalFields terminal={terminal.data} />
      ) : (
        <Text c="dimmed">{terminal.isError || !id ? t('broadcast:detail.notFound') : t('common:feedback.loading')}</Text>
      )}
    </PagePanel>
  );
}
