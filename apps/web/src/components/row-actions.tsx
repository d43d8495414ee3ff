import type { ReactNode } from 'react';
import { ActionIcon, Group, Table, Tooltip, type MantineColor } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** An icon button of a table row; its tooltip is also its accessible name. */
export function IconAction({
  label,
  onClick,
  color,
  variant,
  testId,
  children,
}: {
  label: string;
  onClick: () => void;
  color?: MantineColor;
  variant?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant={variant} color={color} onClick={onClick} aria-label={label} data-testid={testId}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** The last cell of a row: its icon buttons, right-aligned. */
export function RowActionsCell({ children }: { children: ReactNode }) {
  return (
    <Table.Td>
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {children}
      </Group>
    </Table.Td>
  );
}

/**
 * The actions cell of a row: any actions of the row's own (`children`), then Edit and Delete, each shown only to
 * callers with its button. No cell when there is nothing to show.
 */
export function EditDeleteCell({
  canEdit,
  canDelete,
  onEdit,
  onDelete,
  editLabel,
  editTestId,
  deleteTestId,
  children,
}: {
  canEdit: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
  /** Edit's tooltip, 'Edit' unless told. */
  editLabel?: string;
  editTestId?: string;
  deleteTestId?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (!canEdit && !canDelete && !children) return null;
  return (
    <RowActionsCell>
      {children}
      {canEdit && (
        <IconAction label={editLabel ?? t('common:actions.edit')} onClick={onEdit} testId={editTestId}>
          <IconEdit size={18} />
        </IconAction>
      )}
      {canDelete && (
        <IconAction label={t('common:actions.delete')} color="red" onClick={onDelete} testId={deleteTestId}>
          <IconTrash size={18} />
        </IconAction>
      )}
    </RowActionsCell>
  );
}
