import { useMemo, useState } from 'react';
import { Badge, Button, CloseButton, EmptyState, Group, Loader, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconChevronsDown, IconChevronsUp, IconMapPinOff, IconMapSearch, IconPlus, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Button as PermissionButton, type AreaTreeNode } from '@sc/contracts';
import { get } from '@/api/request';
import { useButton } from '@/auth/session-store';
import { PagePanel } from '@/components/page-panel';
import { confirmDelete } from '@/components/confirm';
import { notifySuccess } from '@/components/notify';
import { currentLanguage } from '@/i18n';
import { AREA_TREE_KEY, areaLabel, useAreaTree } from './area-tree';
import { Deferred, lazyComponent } from '@/components/deferred';
import type { RegionFormTarget } from './region-form-modal';
import { RegionTreeTable, RegionTreeSkeleton } from './region-tree-table';
import { countRegions, filterRegions, parentIds, visibleRows } from './region-tree-utils';

const RegionFormModal = lazyComponent(() => import('./region-form-modal'), 'RegionFormModal');

/** /regionManage/regionManage: the region tree with its names and remarks; add, edit and delete by button permission. */
export function RegionManagePage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const queryClient = useQueryClient();
  const { tree, isLoading, isFetching, isError, refetch } = useAreaTree();
  const canAdd = useButton(PermissionButton.Add);
  const canEdit = useButton(PermissionButton.Edit);
  const canDelete = useButton(PermissionButton.Delete);

  const [filter, setFilter] = useState('');
  const [query] = useDebouncedValue(filter.trim(), 150);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [target, setTarget] = useState<RegionFormTarget | null>(null);
  const [dialogOpened, setDialogOpened] = useState(false);

  const filtered = useMemo(() => filterRegions(tree, query, lang), [tree, query, lang]);
  const rows = useMemo(() => visibleRows(filtered, collapsed, query !== ''), [filtered, collapsed, query]);
  const total = useMemo(() => countRegions(tree), [tree]);

  const open = (next: RegionFormTarget) => {
    setTarget(next);
    setDialogOpened(true);
  };
  const close = () => {
    setDialogOpened(false);
    setTarget(null);
  };

  const toggle = (id: number) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const remove = useMutation({
    mutationFn: (node: AreaTreeNode) => get<null>('/bi/area/del', { id: node.id }),
    onSuccess: async () => {
      notifySuccess(t('common:feedback.deleted'));
      await queryClient.invalidateQueries({ queryKey: AREA_TREE_KEY });
    },
    // A refusal (sub-regions, devices) is already shown as a toast by the request layer.
  });

  const askDelete = async (node: AreaTreeNode) => {
    if (await confirmDelete(t('region:deleteDetail', { name: areaLabel(node, lang) }))) remove.mutate(node);
  };

  const addTop = () => open({ mode: 'create', parentId: null });

  let content;
  if (isLoading) content = <RegionTreeSkeleton />;
  else if (isError && tree.length === 0)
    content = (
      <EmptyState
        py="xl"
        variant="light"
        color="red"
        icon={<IconAlertTriangle size={28} />}
        title={t('region:loadFailed.title')}
        description={t('region:loadFailed.description')}
        data-testid="region-load-failed"
      >
        <EmptyState.Actions>
          <Button variant="light" onClick={refetch} loading={isFetching}>
            {t('region:loadFailed.retry')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  else if (tree.length === 0)
    content = (
      <EmptyState
        py="xl"
        variant="light"
        icon={<IconMapPinOff size={28} />}
        title={t('region:empty.title')}
        description={t('region:empty.description')}
      >
        {canAdd && (
          <EmptyState.Actions>
            <Button leftSection={<IconPlus size={16} />} onClick={addTop}>
              {t('region:addTop')}
            </Button>
          </EmptyState.Actions>
        )}
      </EmptyState>
    );
  else if (rows.length === 0)
    content = (
      <EmptyState
        py="xl"
        icon={<IconMapSearch size={28} />}
        withIndicatorBackground
        title={t('region:noMatch.title')}
        description={t('region:noMatch.description', { query })}
        data-testid="region-no-match"
      />
    );
  else
    content = (
      <RegionTreeTable
        rows={rows}
        lang={lang}
        highlight={query}
        onToggle={toggle}
        canAdd={canAdd}
        canEdit={canEdit}
        canDelete={canDelete}
        deletingId={remove.isPending ? (remove.variables?.id ?? null) : null}
        onAddChild={(node) => open({ mode: 'create', parentId: node.id })}
        onEdit={(node) => open({ mode: 'edit', node })}
        onDelete={(node) => void askDelete(node)}
      />
    );

  return (
    <PagePanel
      title={t('common:route.regionManage')}
      actions={
        canAdd && (
          <Button leftSection={<IconPlus size={16} />} onClick={addTop} data-testid="region-add">
            {t('region:addTop')}
          </Button>
        )
      }
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap" style={{ flex: '1 1 320px' }}>
          <TextInput
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
            placeholder={t('region:filterPlaceholder')}
            aria-label={t('region:filterPlaceholder')}
            leftSection={<IconSearch size={16} />}
            rightSection={filter ? <CloseButton size="sm" onClick={() => setFilter('')} aria-label={t('common:actions.reset')} /> : null}
            w={{ base: '100%', xs: 300 }}
            data-testid="region-filter"
          />
          <Button.Group>
            <Button
              variant="default"
              leftSection={<IconChevronsDown size={16} />}
              onClick={() => setCollapsed(new Set())}
              data-testid="region-expand-all"
            >
              {t('region:expandAll')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconChevronsUp size={16} />}
              onClick={() => setCollapsed(new Set(parentIds(tree)))}
              data-testid="region-collapse-all"
            >
              {t('region:collapseAll')}
            </Button>
          </Button.Group>
        </Group>
        <Group gap="xs" wrap="nowrap" display={isLoading || (isError && tree.length === 0) ? 'none' : undefined}>
          {isFetching && <Loader size="xs" />}
          <Badge variant="light" size="lg" radius="sm" tt="none" data-testid="region-count">
            {t('region:count', { count: total })}
          </Badge>
          <Badge variant="light" color="gray" size="lg" radius="sm" tt="none" visibleFrom="sm">
            {t('region:topLevelCount', { count: tree.length })}
          </Badge>
        </Group>
      </Group>
      {content}
      <Deferred when={dialogOpened}>
        <RegionFormModal
          target={target}
          opened={dialogOpened}
          onClose={close}
          onSaved={({ parentRegion }) => {
            // Show the new or moved region: its parent opens.
            if (parentRegion !== null)
              setCollapsed((current) => {
                const next = new Set(current);
                next.delete(parentRegion);
                return next;
              });
            close();
          }}
        />
      </Deferred>
    </PagePanel>
  );
}
