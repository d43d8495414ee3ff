import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, ScrollArea, Table, Text, Tooltip } from '@mantine/core';
import { IconBug } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ERROR_LOG_ENABLED, useErrorLog } from '@/settings/error-log';
import { parseTime } from '@/utils/format';

/** Spec sections 2 and 9: client errors are collected in production and viewable from the navbar. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const entries = useErrorLog((s) => s.entries);
  const clear = useErrorLog((s) => s.clear);
  const [opened, setOpened] = useState(false);
  if (!ERROR_LOG_ENABLED || entries.length === 0) return null;
  return (
    <>
      <Tooltip label={t('common:nav.errorLog')}>
        <ActionIcon
          size="lg"
          color="red"
          aria-label={t('common:nav.errorLog')}
          onClick={() => setOpened(true)}
          data-testid="error-log"
          pos="relative"
        >
          <IconBug size={20} />
          <Badge size="xs" color="red" circle pos="absolute" top={0} right={0}>
            {entries.length}
          </Badge>
        </ActionIcon>
      </Tooltip>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('common:nav.errorLog')} size="xl">
        {entries.length === 0 ? (
          <Text c="dimmed">{t('common:nav.errorLogEmpty')}</Text>
        ) : (
          <ScrollArea.Autosize mah="60vh">
            <Table striped data-testid="error-log-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common:nav.errorMessage')}</Table.Th>
                  <Table.Th>{t('common:nav.errorPlace')}</Table.Th>
                  <Table.Th>{t('common:nav.errorTime')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.map((entry) => (
                  <Table.Tr key={`${entry.time}-${entry.message}`}>
                    <Table.Td>{entry.message}</Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {entry.url} {entry.where}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{parseTime(entry.time)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            onClick={() => {
              clear();
              setOpened(false);
            }}
          >
            {t('common:nav.errorLogClear')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
