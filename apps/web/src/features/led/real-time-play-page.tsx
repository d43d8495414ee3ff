import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, DeviceFamily, resolutionMismatch, type LedRow } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { DeviceListBody, DeviceListFilters, DeviceTable, useDeviceList } from '@/components/device-list';
import { notifyError, notifySuccess } from '@/components/notify';
import { PagePanel } from '@/components/page-panel';
import { Select } from '@/components/select';
import type { Column } from '@/components/table-columns';
import { NameCode } from '@/components/table-parts';
import { DispatchPanel } from '@/features/dispatch/dispatch-panel';
import { formatResolution } from '@/features/signage-materials/format';
import { paging } from '@/navigation/search-params';
import { useDeleteLed, useLedPage, useLiveLed, useRealTimePlay } from './api';
import { describeLedDispatch } from './led-dispatch';
import { useLedMediaPage } from './media-api';
import { PlayingCell } from './playing-badge';

const route = getRouteApi('/_auth/_shell/ledManage/ledRealTimePlay');

/** The medium to push and the two commands, over the selected screens. */
function PlayCard({ selected, rows, onDispatched }: { selected: number[]; rows: readonly LedRow[]; onDispatched: (id: string) => void }) {
  const { t } = useTranslation();
  const media = useLedMediaPage({ pageNum: 1, pageSize: 100 });
  const { play, stop } = useRealTimePlay();
  const canPlay = useButton(ButtonPermission.OpenAndClose);
  const [mediaId, setMediaId] = useState<string | null>(null);
  const chosen = media.data?.list.find((m) => String(m.id) === mediaId) ?? null;
  const mismatched = chosen ? rows.filter((r) => selected.includes(r.id) && resolutionMismatch(chosen, r)).length : 0;
  const run = (started: Promise<{ dispatchId: string }>) =>
    started
      .then(({ dispatchId }) => {
        notifySuccess(t('led:realtime.sent'));
        onDispatched(dispatchId);
      })
      .catch((error: unknown) => notifyError(error instanceof Error ? error.message : String(error)));
  const none = selected.length === 0;
  return (
    <Paper withBorder p="md" data-testid="led-play-card">
      <Stack gap="sm">
        <Title order={5}>{t('led:realtime.title')}</Title>
        <Select
          label={t('led:realtime.media')}
          placeholder={t('led:realtime.mediaPlaceholder')}
          searchable
          data={(media.data?.list ?? []).map((m) => ({
            value: String(m.id),
            label: `${m.name} (${t(`led:media.type.${m.type}`)}, ${formatResolution(m.width, m.height)})`,
          }))}
          value={mediaId}
          onChange={setMediaId}
          data-testid="led-play-media"
        />
        <Text size="sm" c={none ? 'dimmed' : undefined} data-testid="led-play-count">
          {none ? t('led:command.nothingSelected') : t('led:realtime.selected', { count: selected.length })}
        </Text>
        {mismatched > 0 && (
          <Text size="sm" c="orange" data-testid="led-play-mismatch">
            {t('led:realtime.mismatch', { count: mismatched })}
          </Text>
        )}
        {canPlay && (
          <Group>
            <Button
              leftSection={<IconPlayerPlay size={16} />}
              disabled={none || !chosen}
              loading={play.isPending}
              onClick={() => void run(play.mutateAsync({ mediaId: chosen!.id, ids: selected }))}
              data-testid="led-play-now"
            >
              {t('led:realtime.play')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconPlayerStop size={16} />}
              disabled={none}
              loading={stop.isPending}
              onClick={() => void run(stop.mutateAsync({ ids: selected }))}
              data-testid="led-play-stop"
            >
              {t('led:realtime.stop')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** /ledManage/ledRealTimePlay: one medium pushed to the chosen screens now; what every screen shows, live from the screens. */
export function LedRealTimePlayPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { pageNum, pageSize } = paging(search);
  const screens = useLedPage({ name: search.name, regionId: search.regionId, networkStatus: search.networkStatus, pageNum, pageSize });
  const remove = useDeleteLed();
  useLiveLed();
  const rows = screens.data?.list ?? [];
  const columns: Column<LedRow>[] = [
    { key: 'name', label: t('led:fields.name'), always: true, cell: (row) => <NameCode name={row.name} code={row.sn} fw={500} /> },
    { key: 'network', label: t('led:fields.networkStatus'), cell: (row) => t(`led:network.${row.networkStatus}`) },
    { key: 'resolution', label: t('led:fields.resolution'), cell: (row) => formatResolution(row.width, row.height) },
    { key: 'playing', label: t('led:realtime.playingNow'), always: true, cell: (row) => <PlayingCell playing={row.playing} /> },
  ];
  const list = useDeviceList({
    search,
    go: (next, replace) => void navigate({ search: next, replace, resetScroll: !replace }),
    rows,
    table: 'led-real-time',
    columns,
    remove: (id) => remove.mutateAsync(id),
    deleteText: (screen) => t('led:list.deleteDetail', { name: screen.name }),
  });
  const { selection, draft, setDraft } = list;
  return (
    <PagePanel title={t('common:route.ledRealTimePlay')}>
      <DeviceListBody
        list={list}
        total={screens.data?.total ?? 0}
        side={
          <>
            <PlayCard selected={[...selection.selected]} rows={rows} onDispatched={list.follow} />
            <DispatchPanel family={DeviceFamily.Led} dispatchId={search.dispatch ?? null} describe={describeLedDispatch} />
          </>
        }
      >
        <DeviceListFilters
          testId="led-rt"
          nameKey="name"
          nameLabel={t('led:fields.name')}
          regionLabel={t('led:fields.region')}
          draft={draft}
          setDraft={setDraft}
          apply={list.apply}
        />
        <DeviceTable
          testId="led-rt"
          rows={rows}
          loading={screens.isLoading}
          selection={selection}
          columns={list.columns}
          texts="led:list"
          rowLabel={(screen) => screen.name}
          rowTestId={(screen) => `led-rt-row-${screen.sn}`}
          withActions={false}
          actions={() => null}
        />
      </DeviceListBody>
    </PagePanel>
  );
}
