import { ActionIcon, Code, Group, Modal, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconMaximize } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OperationLogRow } from '@sc/contracts';
import { CopyTextButton } from '@/components/copy-text-button';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useActionLabel } from './log-labels';

const PREVIEW_CHARS = 60;

/** The recorded parameters on one line; `{}` parts of an empty request are left out. */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !Array.isArray(value)) {
    const parts = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0),
    );
    if (parts.length === 0) return '';
    value = Object.fromEntries(parts);
  }
  return JSON.stringify(value);
}

/** A one-line preview of the request parameters; clicking it opens them in full. */
export function RequestParamsCell({ row, onOpen }: { row: OperationLogRow; onOpen: (row: OperationLogRow) => void }) {
  const { t } = useTranslation();
  const text = compactJson(row.requestParams);
  if (!text) {
    return (
      <Text size="sm" c="dimmed">
        {t('system:log.none')}
      </Text>
    );
  }
  const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  return (
    <Group gap={2} wrap="nowrap">
      <UnstyledButton onClick={() => onOpen(row)} title={t('system:log.viewParams')} maw={180} miw={0} data-testid="log-params">
        <Code display="block" title={text} style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', fontSize: 12 }}>
          {preview}
        </Code>
      </UnstyledButton>
      <Tooltip label={t('system:log.viewParams')} withArrow>
        <ActionIcon size="sm" variant="subtle" color="gray" onClick={() => onOpen(row)} aria-label={t('system:log.viewParams')}>
          <IconMaximize size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The full request parameters of one entry, pretty-printed, with a copy button. */
export function RequestParamsModal({ row, opened, onClose }: { row: OperationLogRow | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const actionLabel = useActionLabel();
  const pretty = row ? JSON.stringify(row.requestParams, null, 2) : '';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      fullScreen={isMobile}
      title={t('system:log.paramsTitle', { description: row ? actionLabel(row.description) : '' })}
    >
      {row && (
        <Stack gap="sm" data-testid="log-params-modal">
          <Group gap="xs" justify="space-between">
            <Code>{row.methodName}</Code>
            <CopyTextButton value={pretty} label={t('system:log.copy')} copiedLabel={t('system:log.copied')} />
          </Group>
          <ScrollArea.Autosize mah={isMobile ? undefined : 420} type="auto">
            <Code block style={{ fontSize: 12 }}>
              {pretty}
            </Code>
          </ScrollArea.Autosize>
          {row.errorMessage && (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('system:log.errorMessage')}
              </Text>
              <Code block color="red.0" c="red.8" style={{ fontSize: 12 }}>
                {row.errorMessage}
              </Code>
            </Stack>
          )}
        </Stack>
      )}
    </Modal>
  );
}
