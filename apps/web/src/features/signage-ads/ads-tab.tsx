import { useState } from 'react';
import { Badge, Button, Center, Group, Image, Stack, Table } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AD_AUDIT_STATUSES, AD_NAME_MAX, AdAuditStatus, Button as ButtonPermission, ScreenOrientation, type AdRow } from '@sc/contracts';
import { useButton, useSession } from '@/auth/session-store';
import { confirmDelete, deleteAfterConfirm } from '@/components/confirm';
import { Deferred, lazyComponent } from '@/components/deferred';
import { NameFilter, OptionFilter } from '@/components/filter-fields';
import { notifyError, notifySuccess } from '@/components/notify';
import { FilterBar } from '@/components/page-panel';
import { EditDeleteCell, IconAction } from '@/components/row-actions';
import { SelectPageHeader, SelectableRow, usePageSelection } from '@/components/selection';
import { ColumnCells, ColumnHeads, OneLine, TableBox, useTableColumns } from '@/components/table-columns';
import { TableFooter } from '@/components/table-footer';
import { TableEmptyRow } from '@/components/table-parts';
import { usePagedFilters } from '@/components/use-paged-filters';
import { formatDuration } from '@/features/signage-materials/format';
import { useAdPage, useAuditAd, useDeleteAds } from './api';
import { orientationKey } from './orientation';

// The editor (canvas, playlists, preview) loads when first opened, keeping the page's first load small.
const AdEditorModal = lazyComponent(() => import('./ad-editor'), 'AdEditorModal');

const COVER = { w: 48, h: 48 };

/**
 * Ad Management: the floor screens' ads with their cover, orientation, split screens, total duration and audit status;
 * add and edit in the visual editor, delete one or the selected ones, and (administrators) audit.
 */
export function AdsTab() {
  const { t } = useTranslation();
  const { field, query, filterBar, footer } = usePagedFilters<{
    name?: string;
    orientation?: ScreenOrientation;
    auditStatus?: AdAuditStatus;
  }>();
  const ads = useAdPage(query);
  const remove = useDeleteAds();
  const audit = useAuditAd();
  const canAdd = useButton(ButtonPermission.Add);
  const canEdit = useButton(ButtonPermission.Edit);
  const canDelete = useButton(ButtonPermission.Delete);
  const canAudit = useSession((s) => s.isAdmin);
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const rows = ads.data?.list ?? [];
  const selection = usePageSelection(rows.map((ad) => ad.id));
  const f = (field: string) => t(`signageAds:fields.${field}`);

  const deleteSelected = async () => {
    const ids = [...selection.selected];
    // Spec section 5: 'Batch delete needs at least one selected ad'.
    if (ids.length === 0) return notifyError(t('messages:adBatchDeleteEmpty'));
    if (!(await confirmDelete(t('signageAds:deleteSelected', { count: ids.length })))) return;
    try {
      await remove.mutateAsync({ ids });
      selection.setSelected(new Set());
      notifySuccess(t('common:feedback.deleted'));
    } catch {
      // The refusal is already on screen.
    }
  };
  const setAudit = (ad: AdRow, auditStatus: AdAuditStatus) =>
    audit
      .mutateAsync({ id: ad.id, auditStatus })
      .then(() => notifySuccess(t('common:feedback.updated')))
      .catch(() => undefined);

  const columns = useTableColumns<AdRow>('signageAds', [
    {
      key: 'cover',
      label: f('cover'),
      always: true,
      cell: (ad) =>
        ad.coverUrl ? (
          <Image src={ad.coverUrl} alt={ad.name} w={COVER.w} h={COVER.h} fit="cover" radius="sm" loading="lazy" data-testid="ad-cover" />
        ) : (
          <Center w={COVER.w} h={COVER.h} />
        ),
    },
    { key: 'name', label: f('name'), always: true, cell: (ad) => <OneLine fw={500}>{ad.name}</OneLine> },
    {
      key: 'orientation',
      label: f('orientation'),
      td: { 'data-testid': 'ad-row-orientation' },
      cell: (ad) => t(`signageAds:orientation.${orientationKey(ad.orientation)}`),
    },
    { key: 'splitCount', label: f('splitCount'), align: 'right', td: { 'data-testid': 'ad-row-split' }, cell: (ad) => ad.splitCount },
    {
      key: 'totalDuration',
      label: f('totalDuration'),
      align: 'right',
      td: { 'data-testid': 'ad-row-duration' },
      cell: (ad) => formatDuration(ad.totalDuration),
    },
    {
      key: 'auditStatus',
      label: f('auditStatus'),
      cell: (ad) => (
        <Badge
          color={ad.auditStatus === AdAuditStatus.Audited ? 'green' : 'gray'}
          variant="light"
          data-testid="ad-audit"
          data-status={ad.auditStatus}
        >
          {t(`signageAds:auditStatus.${ad.auditStatus}`)}
        </Badge>
      ),
    },
    { key: 'auditRequired', label: f('auditRequired'), hidden: true, cell: (ad) => t(ad.auditRequired ? 'signageAds:yes' : 'signageAds:no') },
    { key: 'createdBy', label: f('createdBy'), hidden: true, cell: (ad) => ad.createdBy },
  ]);

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        {canDelete && (
          <Button
            variant="light"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => void deleteSelected()}
            data-testid="ad-batch-delete"
          >
            {t('signageAds:batchDelete')}
          </Button>
        )}
        {canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ id: null })} data-testid="ad-add">
            {t('signageAds:add')}
          </Button>
        )}
      </Group>
      <FilterBar {...filterBar} testId="ad">
        <NameFilter label={f('name')} maxLength={AD_NAME_MAX} {...field('name')} testId="ad-name-filter" />
        <OptionFilter
          label={f('orientation')}
          placeholder={t('signageAds:allOrientations')}
          options={Object.values(ScreenOrientation).map((o) => ({ value: o, label: t(`signageAds:orientation.${orientationKey(o)}`) }))}
          {...field('orientation')}
        />
        <OptionFilter
          label={f('auditStatus')}
          placeholder={t('signageAds:allAuditStatuses')}
          options={AD_AUDIT_STATUSES.map((s) => ({ value: s, label: t(`signageAds:auditStatus.${s}`) }))}
          {...field('auditStatus')}
        />
      </FilterBar>
      <TableBox>
        <Table striped verticalSpacing={4} data-testid="ad-table">
          <ColumnHeads
            columns={columns}
            lead={<SelectPageHeader selection={selection} label={t('signageAds:batchDelete')} testId="ad-select-page" />}
          />
          <Table.Tbody>
            {rows.length === 0 && !ads.isLoading && <TableEmptyRow colSpan={columns.span() + 1} py="lg" />}
            {rows.map((ad) => (
              <SelectableRow key={ad.id} selection={selection} id={ad.id} label={ad.name} testId={`ad-row-${ad.name}`}>
                <ColumnCells columns={columns} row={ad} />
                <EditDeleteCell
                  canEdit={canEdit}
                  canDelete={canDelete}
                  onEdit={() => setEditing({ id: ad.id })}
                  onDelete={() =>
                    void deleteAfterConfirm(
                      t('signageAds:deleteDetail', { name: ad.name }),
                      () => remove.mutateAsync({ ids: [ad.id] }),
                      t('common:feedback.deleted'),
                    )
                  }
                  editLabel={t('signageAds:edit')}
                  editTestId="ad-edit"
                  deleteTestId="ad-delete"
                >
                  {canAudit &&
                    (ad.auditStatus === AdAuditStatus.Audited ? (
                      <IconAction
                        label={t('signageAds:markNotAudited')}
                        onClick={() => void setAudit(ad, AdAuditStatus.NotAudited)}
                        testId="ad-unaudit"
                      >
                        <IconCircleX size={18} />
                      </IconAction>
                    ) : (
                      <IconAction
                        label={t('signageAds:markAudited')}
                        onClick={() => void setAudit(ad, AdAuditStatus.Audited)}
                        testId="ad-audit-action"
                      >
                        <IconCircleCheck size={18} />
                      </IconAction>
                    ))}
                </EditDeleteCell>
              </SelectableRow>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
      <TableFooter {...footer(ads.data?.total ?? 0)} />
      <Deferred when={editing !== null}>{editing && <AdEditorModal id={editing.id} onClose={() => setEditing(null)} />}</Deferred>
    </Stack>
  );
}
