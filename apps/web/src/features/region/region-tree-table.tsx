import { ActionIcon, Badge, Box, Group, Highlight, Skeleton, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconBuildingCommunity, IconChevronRight, IconMapPin, IconPencil, IconSubtask, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AreaTreeNode } from '@sc/contracts';
import type { UiLanguage } from '@/i18n/languages';
import { areaLabel } from './area-tree';
import type { RegionRow } from './region-tree-utils';
import classes from './region.module.css';
import { ColumnCells, ColumnHeads, PinnedActionsCell, TableBox, useTableColumns } from '@/components/table-columns';

const INDENT_PX = 22;

interface RegionTreeTableProps {
  rows: RegionRow[];
  lang: UiLanguage;
  /** The filter text, highlighted in the names. */
  highlight: string;
  onToggle: (id: number) => void;
  canAdd: boolean;
  canEdit: boolean;
  canDelete: boolean;
  deletingId: number | null;
  onAddChild: (node: AreaTreeNode) => void;
  onEdit: (node: AreaTreeNode) => void;
  onDelete: (node: AreaTreeNode) => void;
}

/** The region tree as a table: the translated name with its level, the other names, the remark, and row actions. */
export function RegionTreeTable({
  rows,
  lang,
  highlight,
  onToggle,
  canAdd,
  canEdit,
  canDelete,
  deletingId,
  onAddChild,
  onEdit,
  onDelete,
}: RegionTreeTableProps) {
  const { t } = useTranslation();
  const withActions = canAdd || canEdit || canDelete;
  const mark = (text: string) =>
    highlight ? (
      <Highlight component="span" inherit highlight={highlight}>
        {text}
      </Highlight>
    ) : (
      text
    );
  const dash = (text: string) =>
    text ? (
      mark(text)
    ) : (
      <Text span c="dimmed" inherit>
        —
      </Text>
    );

  const columns = useTableColumns<RegionRow>('regions', [
    {
      key: 'region',
      label: t('region:columns.region'),
      always: true,
      cell: ({ node, depth, hasChildren, expanded }) => {
        const label = areaLabel(node, lang);
        const others = [...new Set([node.name, node.zhCn, node.enUs].filter((name) => name && name !== label))];
        const Icon = depth === 0 ? IconBuildingCommunity : IconMapPin;
        return (
          <Group
            gap={6}
            wrap="nowrap"
            style={{ paddingInlineStart: depth * INDENT_PX }}
            className={hasChildren ? classes.toggleable : undefined}
            onClick={hasChildren ? () => onToggle(node.id) : undefined}
          >
            {hasChildren ? (
              <ActionIcon
                size="sm"
                color="gray"
                variant="subtle"
                aria-label={t(expanded ? 'region:collapse' : 'region:expand')}
                aria-expanded={expanded}
                onClick={(event) => {
                  event.stopPropagation();
                  onToggle(node.id);
                }}
                data-testid={`region-toggle-${node.id}`}
              >
                <IconChevronRight size={16} className={classes.chevron} data-expanded={expanded || undefined} />
              </ActionIcon>
            ) : (
              <Box w={22} className={classes.leafSpacer} />
            )}
            <ThemeIcon size={26} radius="sm" variant="light" color={depth === 0 ? undefined : 'gray'}>
              <Icon size={16} stroke={1.6} />
            </ThemeIcon>
            <Box miw={0}>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={depth === 0 ? 600 : 500} truncate data-testid="region-label">
                  {mark(label)}
                </Text>
                {hasChildren && (
                  <Tooltip label={t('region:childCount', { count: node.childList.length })} openDelay={300}>
                    <Badge size="xs" variant="light" color="gray" radius="sm" circle={node.childList.length < 10}>
                      {node.childList.length}
                    </Badge>
                  </Tooltip>
                )}
              </Group>
              {(others.length > 0 || node.remark) && (
                <Text size="xs" c="dimmed" hiddenFrom="md" lineClamp={2}>
                  {others.map((name, index) => (
                    <span key={name}>
                      {index > 0 && ' · '}
                      {mark(name)}
                    </span>
                  ))}
                  {node.remark && (others.length > 0 ? ` — ${node.remark}` : node.remark)}
                </Text>
              )}
            </Box>
          </Group>
        );
      },
    },
    {
      key: 'id',
      label: t('region:columns.id'),
      visibleFrom: 'sm',
      cell: ({ node }) => (
        <Text size="xs" c="dimmed" ff="monospace">
          {node.id}
        </Text>
      ),
    },
    { key: 'name', label: t('fields:regionName'), visibleFrom: 'md', cell: ({ node }) => dash(node.name) },
    { key: 'zhCn', label: t('fields:zhCn'), visibleFrom: 'md', cell: ({ node }) => dash(node.zhCn) },
    { key: 'enUs', label: t('fields:enUs'), visibleFrom: 'md', cell: ({ node }) => dash(node.enUs) },
    {
      key: 'remark',
      label: t('fields:remark'),
      visibleFrom: 'lg',
      wrap: true,
      td: { className: classes.remark },
      cell: ({ node }) =>
        node.remark ? (
          <Text size="sm" lineClamp={2} title={node.remark}>
            {node.remark}
          </Text>
        ) : (
          dash('')
        ),
    },
  ]);

  return (
    <Box className={classes.tableWrap}>
      <TableBox>
        <Table className={classes.table} verticalSpacing="xs" data-testid="region-tree">
          <ColumnHeads columns={columns} actions={withActions} />
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.node.id} data-testid={`region-${row.node.id}`}>
                <ColumnCells columns={columns} row={row} />
                <PinnedActionsCell>
                  {canAdd && (
                    <Tooltip label={t('region:addChild')}>
                      <ActionIcon
                        onClick={() => onAddChild(row.node)}
                        aria-label={t('region:addChild')}
                        data-testid={`region-add-child-${row.node.id}`}
                      >
                        <IconSubtask size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {canEdit && (
                    <Tooltip label={t('region:edit')}>
                      <ActionIcon onClick={() => onEdit(row.node)} aria-label={t('region:edit')} data-testid={`region-edit-${row.node.id}`}>
                        <IconPencil size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  {canDelete && (
                    <Tooltip label={t('region:delete')}>
                      <ActionIcon
                        color="red"
                        onClick={() => onDelete(row.node)}
                        loading={deletingId === row.node.id}
                        aria-label={t('region:delete')}
                        data-testid={`region-delete-${row.node.id}`}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </PinnedActionsCell>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableBox>
    </Box>
  );
}

/** Placeholder rows while the tree loads. */
export function RegionTreeSkeleton() {
  return (
    <Stack gap="sm" py="xs" data-testid="region-loading">
      {[0, 1, 1, 2, 2, 0, 1].map((depth, index) => (
        <Group key={index} gap="sm" wrap="nowrap" style={{ paddingInlineStart: depth * INDENT_PX }}>
          <Skeleton h={26} w={26} radius="sm" />
          <Skeleton h={14} w={`${40 - depth * 8}%`} radius="sm" />
        </Group>
      ))}
    </Stack>
  );
}
