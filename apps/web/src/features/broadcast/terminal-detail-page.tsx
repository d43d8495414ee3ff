import { Anchor, Group, SimpleGrid, Text } from '@mantine/core';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { TerminalDownload, TerminalRow } from '@sc/contracts';
import { PagePanel } from '@/components/page-panel';
import { NetworkBadge } from '@/features/lighting/lamp-badges';
import { useLiveTerminals, useTerminal } from './api';
import { PlayingCell, TerminalStatusBadge } from './terminal-badges';
import { DetailField } from '@/components/detail-field';
import { TerminalHistorySection } from './terminal-history';

const route = getRouteApi('/_auth/_shell/broadcastManage/terminalDetail');

/** How far the terminal got with the media of its last task. */
function downloadText(t: TFunction, download: TerminalDownload | null): string {
  if (!download) return '—';
  if (download.error) return t('broadcast:fields.downloadFailed', { task: download.taskId, error: download.error });
  if (download.done) return t('broadcast:fields.downloadDone', { task: download.taskId });
  const percent = download.total > 0 ? Math.floor((download.received / download.total) * 100) : 0;
  return t('broadcast:fields.downloadOf', { task: download.taskId, percent });
}

/** One terminal's fields and live state (status, what it plays, volumes, last report). */
function TerminalFields({ terminal }: { terminal: TerminalRow }) {
  const { t } = useTranslation();
  const f = (key: string) => t(`broadcast:fields.${key}`);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      <DetailField label={f('terminalName')}>{terminal.terminalName}</DetailField>
      <DetailField label={f('terminalId')}>{terminal.terminalId}</DetailField>
      <DetailField label={f('status')} testId="terminal-detail-status">
        <Group gap="xs">
          <TerminalStatusBadge status={terminal.status} />
          <NetworkBadge networkStatus={terminal.networkStatus} />
        </Group>
      </DetailField>
      <DetailField label={f('playing')}>
        <PlayingCell terminal={terminal} />
      </DetailField>
      <DetailField label={f('since')}>{terminal.playing ? new Date(terminal.playing.since).toLocaleString() : '—'}</DetailField>
      <DetailField label={f('terminalIP')}>{terminal.terminalIP}</DetailField>
      <DetailField label={f('broadcastVolume')}>{terminal.broadcastVolume} %</DetailField>
      <DetailField label={f('interphoneVolume')}>{terminal.interphoneVolume} %</DetailField>
      <DetailField label={f('callCode')}>{terminal.callCode || '—'}</DetailField>
      <DetailField label={f('isDefault')}>{t(terminal.isDefault ? 'broadcast:list.yes' : 'broadcast:list.no')}</DetailField>
      <DetailField label={f('priority')}>{terminal.priority}</DetailField>
      <DetailField label={f('relayServer')}>{terminal.relayServer || '—'}</DetailField>
      <DetailField label={f('terminalType')}>{terminal.terminalType || '—'}</DetailField>
      <DetailField label={f('region')}>{terminal.regionName ?? '—'}</DetailField>
      <DetailField label={f('pole')}>{terminal.poleCode ? `${terminal.poleName ?? ''} (${terminal.poleCode})` : '—'}</DetailField>
      <DetailField label={f('version')}>{terminal.softwareVersion || '—'}</DetailField>
      <DetailField label={f('reportedAt')}>{terminal.reportedAt ? new Date(terminal.reportedAt).toLocaleString() : '—'}</DetailField>
      <DetailField label={f('heldTasks')}>{terminal.heldTasks.length > 0 ? terminal.heldTasks.join(', ') : '—'}</DetailField>
      <DetailField label={f('download')} testId="terminal-detail-download">
        {downloadText(t, terminal.download)}
      </DetailField>
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
        <>
          <TerminalFields terminal={terminal.data} />
          <TerminalHistorySection terminal={terminal.data} />
        </>
      ) : (
        <Text c="dimmed">{terminal.isError || !id ? t('broadcast:detail.notFound') : t('common:feedback.loading')}</Text>
      )}
    </PagePanel>
  );
}
