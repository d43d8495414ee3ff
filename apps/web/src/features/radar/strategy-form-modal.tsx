import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DIMMING_LEVELS,
  RADAR_BOUNDS,
  RADAR_EVENT_IDS,
  RADAR_NAME_MAX,
  radarStrategyProblems,
  type RadarEventInfo,
  type RadarStrategyProblem,
  type RadarStrategyRow,
} from '@sc/contracts';
import { BoundedNumberInput } from '@/components/bounded-number-input';
import { FormActions, saveAndClose } from '@/components/form-actions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useRadarGroupOptions, useSaveRadarStrategy } from './api';

/** One event row as typed: empty fields are '' until chosen. */
interface EventRow {
  event: string;
  brightness: string;
  openInterval: number | string;
  closeInterval: number | string;
}

const blank = (): EventRow => ({ event: '', brightness: '', openInterval: 0, closeInterval: 30 });
const rowsOf = (strategy: RadarStrategyRow | null): EventRow[] =>
  strategy
    ? strategy.radarEventInfos.map((e) => ({
        event: String(e.event),
        brightness: String(e.brightness),
        openInterval: e.openInterval,
        closeInterval: e.closeInterval,
      }))
    : [blank()];
const numberOf = (v: string | number) => (v === '' ? undefined : Number(v));

/** The catalogue's words for a problem: the spec's messages, and the radar texts for the rest. */
function useProblemText() {
  const { t } = useTranslation();
  const CATALOGUE = new Set(['selectGroup', 'selectEventId', 'brightnessEmpty', 'timeEmpty', 'invalidValue']);
  return (p: RadarStrategyProblem) => (CATALOGUE.has(p.key) ? t(`messages:${p.key}`) : t(`radar:problems.${p.key}`, p.params));
}

/**
 * Add or edit a radar strategy: its name, the group it is bound to and its events, each an event ID with the
 * brightness its lamps rise to, the seconds before they rise and the seconds they stay. Checked as the server checks
 * it (radarStrategyProblems): 'Please select a group', 'Please select event ID'.
 */
export function RadarStrategyFormModal({ opened, strategy, onClose }: { opened: boolean; strategy: RadarStrategyRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveRadarStrategy();
  const groups = useRadarGroupOptions();
  const problemText = useProblemText();
  const [name, setName] = useState('');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [rows, setRows] = useState<EventRow[]>([blank()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!opened) return;
    setName(strategy?.name ?? '');
    setGroupId(strategy ? String(strategy.groupId) : null);
    setRows(rowsOf(strategy));
    setErrors({});
  }, [opened, strategy]);

  const events = (): Partial<RadarEventInfo>[] =>
    rows.map((r) => ({
      event: numberOf(r.event) as RadarEventInfo['event'] | undefined,
      brightness: numberOf(r.brightness) as RadarEventInfo['brightness'] | undefined,
      openInterval: numberOf(r.openInterval),
      closeInterval: numberOf(r.closeInterval),
    }));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = t('messages:nameEmpty');
    for (const p of radarStrategyProblems(groupId === null ? undefined : Number(groupId), events())) found[p.field] ??= problemText(p);
    if (Object.keys(found).length > 0) return setErrors(found);
    void saveAndClose(
      () =>
        save.mutateAsync({
          ...(strategy ? { id: strategy.id } : {}),
          name: name.trim(),
          groupId: Number(groupId),
          radarEventInfos: events(),
        }),
      { updated: Boolean(strategy), close: onClose, setErrors },
    );
  };
  const set = (i: number, change: Partial<EventRow>) => setRows((all) => all.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const at = (i: number, field: keyof EventRow) => errors[`radarEventInfos[${i}].${field}`];
  const groupOptions = (groups.data ?? []).map((g) => ({
    value: String(g.id),
    label: g.name,
    // A group already bound to another strategy cannot take this one.
    disabled: g.strategyId !== null && g.strategyId !== strategy?.id,
  }));

  return (
    <Modal opened={opened} onClose={onClose} title={t(strategy ? 'radar:strategies.edit' : 'radar:strategies.add')} size="xl" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="radar-strategy-form">
        <Stack>
          <Group grow align="flex-start">
            <TextInput
              label={t('radar:fields.strategyName')}
              required
              maxLength={RADAR_NAME_MAX}
              name="name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
            />
            <Select
              label={t('radar:fields.groupId')}
              required
              placeholder={t('messages:selectGroup')}
              data={groupOptions}
              value={groupId}
              onChange={setGroupId}
              error={errors.groupId}
              data-testid="radar-strategy-group"
            />
          </Group>
          <Text fw={500} size="sm">
            {t('radar:fields.radarEventInfos')}
          </Text>
          {errors.radarEventInfos && (
            <Text c="red" size="sm">
              {errors.radarEventInfos}
            </Text>
          )}
          <Table data-testid="radar-strategy-events">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('radar:fields.uniqueIndex')}</Table.Th>
                <Table.Th>{t('radar:fields.event')}</Table.Th>
                <Table.Th>{t('radar:fields.brightness')}</Table.Th>
                <Table.Th>{t('radar:fields.openInterval')}</Table.Th>
                <Table.Th>{t('radar:fields.closeInterval')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, i) => (
                <Table.Tr key={i} data-testid="radar-strategy-event">
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={t('radar:fields.event')}
                      placeholder={t('messages:selectEventId')}
                      data={RADAR_EVENT_IDS.map((id) => ({ value: String(id), label: t(`radar:event.${id}`) }))}
                      value={row.event || null}
                      onChange={(v) => set(i, { event: v ?? '' })}
                      error={at(i, 'event')}
                      data-testid="radar-strategy-event-id"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={t('radar:fields.brightness')}
                      placeholder={t('messages:pleaseSelect')}
                      data={DIMMING_LEVELS.map((l) => ({ value: String(l), label: `${l} %` }))}
                      value={row.brightness || null}
                      onChange={(v) => set(i, { brightness: v ?? '' })}
                      error={at(i, 'brightness')}
                      data-testid="radar-strategy-brightness"
                    />
                  </Table.Td>
                  <Table.Td>
                    <BoundedNumberInput
                      aria-label={t('radar:fields.openInterval')}
                      bounds={RADAR_BOUNDS.openInterval}
                      value={row.openInterval}
                      onChange={(v) => set(i, { openInterval: v })}
                      error={at(i, 'openInterval')}
                    />
                  </Table.Td>
                  <Table.Td>
                    <BoundedNumberInput
                      aria-label={t('radar:fields.closeInterval')}
                      bounds={RADAR_BOUNDS.closeInterval}
                      value={row.closeInterval}
                      onChange={(v) => set(i, { closeInterval: v })}
                      error={at(i, 'closeInterval')}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('radar:strategies.removeEvent')}
                      disabled={rows.length === 1}
                      onClick={() => setRows((all) => all.filter((_, j) => j !== i))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={rows.length >= RADAR_BOUNDS.events.max}
              onClick={() => setRows((all) => [...all, blank()])}
              data-testid="radar-strategy-add-event"
            >
              {t('radar:strategies.addEvent')}
            </Button>
          </Group>
          <FormActions onCancel={onClose} loading={save.isPending} testId="radar-strategy-form-save" />
        </Stack>
      </form>
    </Modal>
  );
}
