import type { ReactNode } from 'react';
import { ActionIcon, Tooltip, type MantineColor } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PinnedActionsCell } from './table-columns';

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

/**
 * The actions cell of a row (pinned to the table's right edge): any actions of the row's own (`children`), then Edit
 * and Delete, each shown only to callers with its button. An empty cell when there is nothing to show.
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
  return (
    <PinnedActionsCell>
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
    </PinnedActionsCell>
  );
}
