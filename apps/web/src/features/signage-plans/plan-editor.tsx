import { useState } from 'react';
import { MultiSelect, NumberInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  AD_LOOP_INTERVAL,
  AD_ON_DEMAND,
  AD_PUBLISH_NAME_MAX,
  AdPlayMode,
  AdPublishMode,
  PAGE_SIZE_MAX,
  PublishType,
  adPlanProblems,
  type AdPlanRequest,
  type AdPlanRow,
  type Weekday,
} from '@sc/contracts';
import { DayField, TimeField } from '@/components/date-inputs';
import { FormDialog, saveAndClose } from '@/components/form-actions';
import { WeekdayField } from '@/components/schedule-fields';
import { Select } from '@/components/select';
import { useAdPage } from '@/features/signage-ads/api';
import { useSignageGroups, useSignagePage } from '@/features/signage/api';
import { i18next } from '@/i18n';
import { useInstallationZone, useSavePlan } from './api';
import { planValues } from './plan-values';

/** The shared rules' problems (adPlanProblems) as messages by field, in the catalogue's words. */
function localErrors(plan: AdPlanRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of adPlanProblems(plan)) out[p.field] ??= i18next.t(`messages:${p.key}`, p.params ?? {});
  return out;
}

/**
 * The ad plan editor: publish name, mode (devices or a group; a group without devices cannot be chosen), the ads in
 * playing order, dates, all day or a custom time, weekdays, play mode with its count, interval and on-demand type,
 * and publish type. Checked with the server's rules before saving; the server's field errors shown under their inputs.
 */
export function PlanEditorModal({ plan, onClose }: { plan: AdPlanRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const zone = useInstallationZone();
  const [values, setValues] = useState<AdPlanRequest>(() => planValues(plan, zone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSavePlan();
  const devices = useSignagePage({ pageNum: 1, pageSize: PAGE_SIZE_MAX });
  const groups = useSignageGroups();
  const ads = useAdPage({ pageNum: 1, pageSize: PAGE_SIZE_MAX });
  const f = (field: string) => t(`signagePlans:fields.${field}`);
  const set = (patch: Partial<AdPlanRequest>) => setValues((v) => ({ ...v, ...patch }));
  const setSchedule = (patch: Partial<AdPlanRequest['schedule']>) => setValues((v) => ({ ...v, schedule: { ...v.schedule, ...patch } }));
  const s = values.schedule;
  const limited = values.playMode === AdPlayMode.OnDemand || values.playMode === AdPlayMode.LimitedLoopInterval;

  const submit = () => {
    const local = localErrors(values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    return saveAndClose(() => save.mutateAsync({ ...values, ...(plan ? { id: plan.id } : {}) }), {
      updated: plan !== null,
      close: onClose,
      setErrors,
    });
  };

  return (
    <FormDialog
      opened
      title={plan ? t('signagePlans:editTitle', { name: plan.publishName }) : t('signagePlans:addTitle')}
      onClose={onClose}
      onSubmit={submit}
      busy={save.isPending}
      testId="plan-form"
      submitTestId="plan-save"
      size="lg"
    >
      <Stack gap="sm">
        <TextInput
          label={f('publishName')}
          required
          maxLength={AD_PUBLISH_NAME_MAX}
          value={values.publishName}
          onChange={(e) => set({ publishName: e.currentTarget.value })}
          error={errors.publishName}
          data-testid="plan-name"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {f('publishMode')}
          </Text>
          <SegmentedControl
            value={values.publishMode}
            onChange={(mode) => set({ publishMode: mode as AdPublishMode })}
            data={Object.values(AdPublishMode).map((m) => ({ value: m, label: t(`signagePlans:publishMode.${m}`) }))}
            data-testid="plan-mode"
          />
        </Stack>
        {values.publishMode === AdPublishMode.Devices ? (
          <MultiSelect
            label={f('deviceIds')}
            required
            searchable
            data={(devices.data?.list ?? []).map((d) => ({ value: String(d.id), label: `${d.name} (${d.code})` }))}
            value={(values.deviceIds ?? []).map(String)}
            onChange={(ids) => set({ deviceIds: ids.map(Number) })}
            error={errors.deviceIds}
            data-testid="plan-devices"
          />
        ) : (
          <Select
            label={f('groupId')}
            required
            data={(groups.data ?? []).map((g) => ({
              value: String(g.id),
              // Spec section 5: an empty group cannot be selected.
              disabled: g.deviceCount === 0,
              label:
                g.deviceCount === 0
                  ? t('signagePlans:emptyGroup', { name: g.name })
                  : t('signagePlans:groupDevices', { name: g.name, count: g.deviceCount }),
            }))}
            value={values.groupId ? String(values.groupId) : null}
            onChange={(id) => set({ groupId: id ? Number(id) : null })}
            error={errors.groupId ?? errors.groupIds}
            data-testid="plan-group"
          />
        )}
        <Select
          label={f('publishType')}
          required
          data={Object.values(PublishType).map((p) => ({ value: p, label: t(`signagePlans:publishType.${p}`) }))}
          value={values.publishType}
          onChange={(p) => p && set({ publishType: p as PublishType })}
          error={errors.publishType}
          data-testid="plan-publish-type"
        />
        {values.publishType === PublishType.Clear ? (
          <Text size="sm" c="dimmed">
            {t('signagePlans:clearHint')}
          </Text>
        ) : (
          <MultiSelect
            label={f('adIds')}
            required
            searchable
            data={(ads.data?.list ?? []).map((ad) => ({ value: String(ad.id), label: ad.name }))}
            value={values.adIds.map(String)}
            onChange={(ids) => set({ adIds: ids.map(Number) })}
            error={errors.adIds}
            data-testid="plan-ads"
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <DayField
            label={f('startDate')}
            required
            value={s.startDate}
            onChange={(startDate) => setSchedule({ startDate })}
            error={errors['schedule.startDate']}
            data-testid="plan-start-date"
          />
          <DayField
            label={f('endDate')}
            required
            value={s.endDate}
            onChange={(endDate) => setSchedule({ endDate })}
            error={errors['schedule.endDate']}
            data-testid="plan-end-date"
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {f('timeRange')}
          </Text>
          <SegmentedControl
            value={s.allDay ? 'allDay' : 'custom'}
            onChange={(v) => setSchedule({ allDay: v === 'allDay' })}
            data={[
              { value: 'allDay', label: t('signagePlans:allDay') },
              { value: 'custom', label: t('signagePlans:customTime') },
            ]}
            data-testid="plan-time-mode"
          />
        </Stack>
        {!s.allDay && (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TimeField
              label={f('startTime')}
              required
              value={s.startTime ?? ''}
              onChange={(startTime) => setSchedule({ startTime: startTime || null })}
              error={errors['schedule.startTime']}
              data-testid="plan-start-time"
            />
            <TimeField
              label={f('endTime')}
              required
              value={s.endTime ?? ''}
              onChange={(endTime) => setSchedule({ endTime: endTime || null })}
              error={errors['schedule.endTime']}
              data-testid="plan-end-time"
            />
          </SimpleGrid>
        )}
        <WeekdayField
          label={f('weekdays')}
          value={s.weekdays}
          onChange={(weekdays) => setSchedule({ weekdays: weekdays as Weekday[] })}
          error={errors['schedule.weekdays']}
          testId="plan"
        />
        <Select
          label={f('playMode')}
          required
          data={Object.values(AdPlayMode).map((m) => ({ value: m, label: t(`signagePlans:playMode.${m}`) }))}
          value={values.playMode}
          onChange={(m) =>
            m &&
            set({
              playMode: m as AdPlayMode,
              // Spec section 5: the on-demand type is fixed at 2.
              onDemandType: m === AdPlayMode.OnDemand ? AD_ON_DEMAND.type : null,
            })
          }
          error={errors.playMode}
          data-testid="plan-play-mode"
        />
        {limited && (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <NumberInput
              label={f('playLimitCount')}
              required
              min={1}
              max={AD_ON_DEMAND.maxPlays}
              allowDecimal={false}
              value={values.playLimitCount ?? ''}
              onChange={(n) => set({ playLimitCount: typeof n === 'number' ? n : null })}
              error={errors.playLimitCount}
              data-testid="plan-limit"
            />
            {values.playMode === AdPlayMode.LimitedLoopInterval ? (
              <NumberInput
                label={f('playIntervalSeconds')}
                required
                min={AD_LOOP_INTERVAL.min}
                max={AD_LOOP_INTERVAL.max}
                allowDecimal={false}
                value={values.playIntervalSeconds ?? ''}
                onChange={(n) => set({ playIntervalSeconds: typeof n === 'number' ? n : null })}
                error={errors.playIntervalSeconds}
                data-testid="plan-interval"
              />
            ) : (
              <TextInput label={f('onDemandType')} readOnly value={String(AD_ON_DEMAND.type)} error={errors.onDemandType} />
            )}
          </SimpleGrid>
        )}
      </Stack>
    </FormDialog>
  );
}
