import { Suspense, useEffect, useMemo, useState } from 'react';
import { Stack, Tabs } from '@mantine/core';
import { IconMicrophone, IconSpeakerphone } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Button as ButtonPermission, type AlarmCallPageQuery } from '@sc/contracts';
import { useButton } from '@/auth/session-store';
import { DateTimeField } from '@/components/date-inputs';
import { lazyComponent } from '@/components/deferred';
import { NameFilter } from '@/components/filter-fields';
import { FilterBar, PagePanel } from '@/components/page-panel';
import { TableFooter } from '@/components/table-footer';
import { localIso } from '@/features/system/shared/date-fields';
import { compact, paging } from '@/navigation/search-params';
import { useCallPage, useLiveIncidents } from './api';
import { CallTable } from './call-table';
import { useRecordingPlayer } from './recording-parts';
import type { AudioInquirySearch, AudioInquiryTab } from './search';

// The announcement's form (column search, media list, region picker, dispatch panel) loads when its tab is opened.
const AnnounceView = lazyComponent(() => import('./announce-view'), 'AnnounceView');

const route = getRouteApi('/_auth/_shell/alarmManage/audioInquiry');

/**
 * /alarmManage/audioInquiry: the calls' recordings, searched and played; and announcements on the alarm columns'
 * speakers (media of the broadcast library or a text, in a playback mode), for those with the Edit button, each
 * followed live in the dispatch panel.
 */
export function AudioInquiryPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const mayAnnounce = useButton(ButtonPermission.Edit);
  const tab: AudioInquiryTab = search.tab === 'announce' && mayAnnounce ? 'announce' : 'recordings';
  const go = (next: AudioInquirySearch, replace = false) => void navigate({ search: compact(next), replace, resetScroll: !replace });

  return (
    <PagePanel title={t('common:route.audioInquiry')}>
      <Tabs
        value={tab}
        onChange={(value) => value && go({ ...search, tab: value === 'announce' ? 'announce' : undefined, dispatch: undefined })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="recordings" leftSection={<IconMicrophone size={16} />} data-testid="audio-tab-recordings">
            {t('alarmIntercom:audio.recordings')}
          </Tabs.Tab>
          {mayAnnounce && (
            <Tabs.Tab value="announce" leftSection={<IconSpeakerphone size={16} />} data-testid="audio-tab-announce">
              {t('alarmIntercom:audio.announce')}
            </Tabs.Tab>
          )}
        </Tabs.List>
      </Tabs>
      {tab === 'recordings' ? (
        <RecordingsView search={search} go={go} />
      ) : (
        <Suspense fallback={null}>
          <AnnounceView dispatchId={search.dispatch ?? null} onDispatched={(dispatch) => go({ ...search, dispatch }, true)} />
        </Suspense>
      )}
    </PagePanel>
  );
}

type Draft = Pick<AudioInquirySearch, 'keyword' | 'from' | 'to'>;
const toDraft = ({ keyword, from, to }: AudioInquirySearch): Draft => ({ keyword, from, to });

/**
 * The recorded calls, newest first, by column or agent and start time; each plays and downloads. A call's recording is
 * pushed with its incident (IncidentChanged), which reads the list again: no polling.
 */
function RecordingsView({ search, go }: { search: AudioInquirySearch; go: (next: AudioInquirySearch) => void }) {
  const { t } = useTranslation();
  const { pageNum, pageSize } = paging(search);
  useLiveIncidents();
  const query: AlarmCallPageQuery = compact({
    pageNum,
    pageSize,
    recorded: true,
    keyword: search.keyword,
    startFrom: localIso(search.from),
    startTo: localIso(search.to),
  });
  const calls = useCallPage(query);
  const rows = useMemo(() => calls.data?.list ?? [], [calls.data]);
  const [draft, setDraft] = useState<Draft>(() => toDraft(search));
  useEffect(() => setDraft(toDraft(search)), [search]);
  const filtered = Boolean(search.keyword || search.from || search.to);
  const recordings = useRecordingPlayer(calls, 'recording');

  return (
    <Stack gap="sm">
      <FilterBar
        testId="recording"
        onSubmit={() => go({ pageSize: search.pageSize, ...draft, keyword: draft.keyword?.trim() || undefined })}
        onReset={() => go({ pageSize: search.pageSize })}
      >
        <NameFilter
          label={t('alarmIntercom:fields.keyword')}
          value={draft.keyword}
          onChange={(keyword) => setDraft((d) => ({ ...d, keyword }))}
          maxLength={64}
          width={180}
          testId="recording-filter-keyword"
        />
        <DateTimeField
          label={t('alarmIntercom:fields.from')}
          value={draft.from ?? ''}
          max={draft.to}
          onChange={(from) => setDraft((d) => ({ ...d, from: from || undefined }))}
          data-testid="recording-filter-from"
        />
        <DateTimeField
          label={t('alarmIntercom:fields.to')}
          value={draft.to ?? ''}
          min={draft.from}
          onChange={(to) => setDraft((d) => ({ ...d, to: to || undefined }))}
          data-testid="recording-filter-to"
        />
      </FilterBar>
      <CallTable calls={calls} rows={rows} filtered={filtered} recordingCell={recordings.cell} recordings testId="recording" />
      <TableFooter total={calls.data?.total ?? 0} pageNum={pageNum} pageSize={pageSize} onChange={(page) => go({ ...search, ...page })} />
      {recordings.player}
    </Stack>
  );
}
