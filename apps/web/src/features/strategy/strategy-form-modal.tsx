import { useEffect } from 'react';
import { Modal, Select, SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  DIMMING_LEVELS,
  NUMBER_BOUNDS,
  STRATEGY_NAME_MAX,
  STRATEGY_PERIODS_MAX,
  StrategyMode,
  strategyProblems,
  type DimmingLevel,
  type StrategyAddOrEditRequest,
  type StrategyFamily,
  type StrategyRow,
  type Weekday,
} from '@sc/contracts';
import { BoundedNumberInput, numberFieldError } from '@/components/bounded-number-input';
import { DayField } from '@/components/date-inputs';
import { PeriodListField, WeekdayField } from '@/components/schedule-fields';
import { fieldErrors } from '@/api/field-errors';
import { notifySuccess } from '@/components/notify';
import { FormActions } from '@/components/form-actions';
import { useIsMobile } from '@/layout/use-is-mobile';
import { useSaveStrategy } from './api';

interface PeriodValues {
  start: string;
  end: string;
  level: string | null;
}

interface Values {
  name: string;
  mode: string;
  sunsetOffset: number | string;
  sunriseOffset: number | string;
  sunLevel: string | null;
  startDate: string;
  endDate: string;
  weekdays: string[];
  radarCodes: string[];
  brightness: string | null;
  holdSeconds: number | string;
  periods: PeriodValues[];
}

function valuesOf(row: StrategyRow | null): Values {
  const data = (row?.modeData ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return {
    name: row?.name ?? '',
    mode: String(row?.mode ?? StrategyMode.Week),
    sunsetOffset: (data.sunsetOffset as number | undefined) ?? 0,
    sunriseOffset: (data.sunriseOffset as number | undefined) ?? 0,
    sunLevel: row?.mode === StrategyMode.SunriseSunset ? text(data.level) : '100',
    startDate: text(data.startDate),
    endDate: text(data.endDate),
    weekdays: (data.weekdays as string[] | undefined) ?? [],
    radarCodes: (data.radarCodes as string[] | undefined) ?? [],
    brightness: row?.mode === StrategyMode.Sensing ? text(data.brightness) : '100',
    holdSeconds: (data.holdSeconds as number | undefined) ?? 60,
    periods: (row?.periods ?? [{ start: '18:00', end: '06:00', level: 100 }]).map((p) => ({ start: p.start, end: p.end, level: String(p.level) })),
  };
}

const level = (v: string | null) => (v === null || v === '' ? undefined : (Number(v) as DimmingLevel));
const integer = (v: number | string) => (v === '' ? undefined : Number(v));

/** The request: only the chosen mode's settings; empty inputs stay out so the server names them. */
function requestOf(values: Values, id: number | undefined): StrategyAddOrEditRequest {
  const mode = Number(values.mode) as StrategyMode;
  const periods = values.periods.map((p) => ({ start: p.start, end: p.end, level: level(p.level) as DimmingLevel }));
  const modeData = {
    [StrategyMode.SunriseSunset]: {
      sunsetOffset: integer(values.sunsetOffset),
      sunriseOffset: integer(values.sunriseOffset),
      level: level(values.sunLevel),
    },
    [StrategyMode.Date]: { startDate: values.startDate, endDate: values.endDate },
    [StrategyMode.Week]: { weekdays: values.weekdays as Weekday[] },
    [StrategyMode.Sensing]: { radarCodes: values.radarCodes, brightness: level(values.brightness), holdSeconds: integer(values.holdSeconds) },
  }[mode];
  return { ...(id ? { id } : {}), name: values.name.trim(), mode, modeData, periods } as StrategyAddOrEditRequest;
}

/** Server field names (`modeData.level`, `periods[1].start`) as this form's paths. */
function formPath(field: string, mode: StrategyMode): string {
  const periods = /^periods\[(\d+)\]\.(\w+)$/.exec(field);
  if (periods) return `periods.${periods[1]}.${periods[2]}`;
  if (field === 'modeData.level') return 'sunLevel';
  if (field.startsWith('modeData.')) return field.slice('modeData.'.length);
  return field === 'periods' && mode === StrategyMode.SunriseSunset ? 'periods' : field;
}

/** Add or edit a lamp strategy (or, with family strip, a strip light strategy): name, mode with its own settings, and the period editor. */
export function StrategyFormModal({
  opened,
  strategy,
  onClose,
  family = 'lamp',
}: {
  opened: boolean;
  strategy: StrategyRow | null;
  onClose: () => void;
  family?: StrategyFamily;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const save = useSaveStrategy(family);
  const form = useForm<Values>({
    initialValues: valuesOf(strategy),
    validate: {
      name: (v) => (v.trim() ? null : t('messages:nameEmpty')),
      // Only the chosen mode's numbers are sent, so only they are checked.
      sunsetOffset: (v, all) => (Number(all.mode) === StrategyMode.SunriseSunset ? numberFieldError(t, v, NUMBER_BOUNDS.sunOffset) : null),
      sunriseOffset: (v, all) => (Number(all.mode) === StrategyMode.SunriseSunset ? numberFieldError(t, v, NUMBER_BOUNDS.sunOffset) : null),
      holdSeconds: (v, all) => (Number(all.mode) === StrategyMode.Sensing ? numberFieldError(t, v, NUMBER_BOUNDS.holdSeconds, true) : null),
    },
  });
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(strategy));
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the dialog opens or its target changes
  }, [opened, strategy]);

  const mode = Number(form.values.mode) as StrategyMode;
  const levels = DIMMING_LEVELS.map((l) => ({ value: String(l), label: `${l} %` }));

  const submit = form.onSubmit(async (values) => {
    const request = requestOf(values, strategy?.id);
    // The server's own rules first (libs/contracts): a period left empty or out of order is named under its field and
    // nothing is sent.
    const problems = strategyProblems(request.mode, request.modeData, request.periods);
    if (problems.length > 0) {
      form.setErrors(Object.fromEntries(problems.map((p) => [formPath(p.field, mode), t(`messages:${p.key}`, p.params)])));
      return;
    }
    try {
      await save.mutateAsync(request);
      notifySuccess(t(strategy ? 'common:feedback.updated' : 'common:feedback.created'));
      onClose();
    } catch (error) {
      form.setErrors(Object.fromEntries(Object.entries(fieldErrors(error)).map(([field, message]) => [formPath(field, mode), message])));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t(strategy ? 'strategy:list.edit' : 'strategy:list.add')} size="lg" fullScreen={mobile}>
      <form onSubmit={submit} noValidate data-testid="strategy-form">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('strategy:fields.name')} required maxLength={STRATEGY_NAME_MAX} name="name" {...form.getInputProps('name')} />
            <Select
              label={t('strategy:fields.mode')}
              required
              allowDeselect={false}
              data={[StrategyMode.SunriseSunset, StrategyMode.Date, StrategyMode.Week, StrategyMode.Sensing].map((m) => ({
                value: String(m),
                label: t(`strategy:mode.${m}`),
              }))}
              {...form.getInputProps('mode')}
              data-testid="strategy-mode"
            />
          </SimpleGrid>

          {mode === StrategyMode.SunriseSunset && (
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <BoundedNumberInput
                label={t('strategy:fields.sunsetOffset')}
                bounds={NUMBER_BOUNDS.sunOffset}
                {...form.getInputProps('sunsetOffset')}
              />
              <BoundedNumberInput
                label={t('strategy:fields.sunriseOffset')}
                bounds={NUMBER_BOUNDS.sunOffset}
                {...form.getInputProps('sunriseOffset')}
              />
              <Select label={t('strategy:fields.level')} required data={levels} {...form.getInputProps('sunLevel')} />
            </SimpleGrid>
          )}
          {mode === StrategyMode.Date && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DayField label={t('strategy:fields.startDate')} required {...form.getInputProps('startDate')} data-testid="strategy-start-date" />
              <DayField label={t('strategy:fields.endDate')} required {...form.getInputProps('endDate')} data-testid="strategy-end-date" />
            </SimpleGrid>
          )}
          {mode === StrategyMode.Week && (
            <WeekdayField
              label={t('strategy:fields.weekdays')}
              value={form.values.weekdays}
              onChange={(v) => form.setFieldValue('weekdays', v)}
              error={form.errors.weekdays}
              testId="strategy"
            />
          )}
          {mode === StrategyMode.Sensing && (
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TagsInput
                label={t('strategy:fields.radarCodes')}
                required
                placeholder={t('strategy:form.radarPlaceholder')}
                {...form.getInputProps('radarCodes')}
              />
              <Select label={t('strategy:fields.brightness')} required data={levels} {...form.getInputProps('brightness')} />
              <BoundedNumberInput
                label={t('strategy:fields.holdSeconds')}
                required
                bounds={NUMBER_BOUNDS.holdSeconds}
                {...form.getInputProps('holdSeconds')}
              />
            </SimpleGrid>
          )}

          <PeriodListField<PeriodValues>
            form={form}
            label={t('strategy:fields.periods')}
            hint={t(mode === StrategyMode.SunriseSunset ? 'strategy:form.sunPeriodsHint' : 'strategy:form.periodsHint')}
            max={STRATEGY_PERIODS_MAX}
            blank={{ start: '', end: '', level: null }}
            extra={(i) => (
              <Select
                aria-label={t('strategy:fields.level')}
                placeholder={t('strategy:fields.level')}
                data={levels}
                w={110}
                {...form.getInputProps(`periods.${i}.level`)}
              />
            )}
            testId="strategy"
          />

          <FormActions onCancel={onClose} loading={save.isPending} testId="strategy-save" />
        </Stack>
      </form>
    </Modal>
  );
}
