import type { ReactNode } from 'react';
import { Drawer, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LampRow } from '@sc/contracts';
import { formatTime } from '@/utils/format';
import { useLampDetail } from './equipment-api';
import { FaultList, LampStatusBadge, NetworkBadge } from './lamp-badges';
import { useRegionLabel } from '@/features/region/area-tree';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children === '' || children === null || children === undefined ? '—' : children}
      </Text>
    </Stack>
  );
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** View: every field of one lamp (spec section 3), live like the list. */
export function LampDetailDrawer({ lampId, onClose }: { lampId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const regionLabel = useRegionLabel();
  const detail = useLampDetail(lampId);
  const lamp: LampRow | undefined = detail.data;
  const reading = lamp?.telemetry;
  return (
    <Drawer opened={lampId !== null} onClose={onClose} position="right" size="lg" title={lamp?.lampName ?? t('lighting:equipment.view')}>
      {!lamp ? (
        <Loader />
      ) : (
        <Stack data-testid="lamp-detail">
          <Title order={5}>{t('lighting:equipment.identity')}</Title>
          <SimpleGrid cols={2}>
            <Field label={t('lighting:fields.lampName')}>{lamp.lampName}</Field>
            <Field label={t('lighting:fields.clientId')} testId="detail-clientId">
              {lamp.clientId}
            </Field>
            <Field label={t('lighting:fields.addr')}>{lamp.addr}</Field>
            <Field label={t('lighting:fields.mac')}>{lamp.mac}</Field>
            <Field label={t('lighting:fields.gatewayId')}>{lamp.gatewayId}</Field>
            <Field label={t('lighting:fields.lampControlId')}>{lamp.lampControlId}</Field>
            <Field label={t('lighting:fields.loop')}>{lamp.loopName}</Field>
            <Field label={t('lighting:fields.group')}>{lamp.groupName}</Field>
            <Field label={t('lighting:fields.region')}>{regionLabel(lamp.regionName)}</Field>
            <Field label={t('lighting:fields.position')}>
              {lamp.latitude === null || lamp.longitude === null ? '' : `${lamp.latitude.toFixed(5)}, ${lamp.longitude.toFixed(5)}`}
            </Field>
          </SimpleGrid>
          <Title order={5}>{t('lighting:equipment.state')}</Title>
          <SimpleGrid cols={2}>
            <Field label={t('lighting:fields.status')}>
              <LampStatusBadge status={lamp.status} />
            </Field>
            <Field label={t('lighting:fields.networkStatus')}>
              <NetworkBadge networkStatus={lamp.networkStatus} />
            </Field>
            <Field label={t('lighting:fields.switchState')}>{t(lamp.switchState === 1 ? 'lighting:switch.on' : 'lighting:switch.off')}</Field>
            <Field label={t('lighting:fields.bri')} testId="detail-bri">{`${lamp.bri} %`}</Field>
            <Field label={t('lighting:fields.level')}>{lamp.level === null ? '' : `${lamp.level} %`}</Field>
            <Field label={t('lighting:fields.color')}>{lamp.color}</Field>
            <Field label={t('lighting:fields.faults')}>
              <FaultList faults={lamp.faults} />
            </Field>
            <Field label={t('lighting:fields.reportedAt')}>{lamp.reportedAt ? formatTime(lamp.reportedAt) : t('lighting:list.never')}</Field>
          </SimpleGrid>
          <Title order={5}>{t('lighting:equipment.readings')}</Title>
          <SimpleGrid cols={2}>
            <Field label={t('lighting:fields.voltage')}>{reading ? `${reading.voltage.toFixed(1)} V` : ''}</Field>
            <Field label={t('lighting:fields.current')}>{reading ? `${reading.current.toFixed(3)} A` : ''}</Field>
            <Field label={t('lighting:fields.power')}>{reading ? `${reading.power.toFixed(1)} W` : ''}</Field>
            <Field label={t('lighting:fields.powerFactor')}>{reading ? reading.powerFactor.toFixed(2) : ''}</Field>
            <Field label={t('lighting:fields.signal')}>{reading ? `${reading.signal} dBm` : ''}</Field>
            <Field label={t('lighting:fields.totalIllumination')}>
              {lamp.totalIlluminationHours === null ? '' : t('lighting:equipment.hours', { count: lamp.totalIlluminationHours })}
            </Field>
            <Field label={t('lighting:fields.hardwareVersion')}>{lamp.hardwareVersion}</Field>
            <Field label={t('lighting:fields.softwareVersion')}>{lamp.softwareVersion}</Field>
          </SimpleGrid>
          <Title order={5}>{t('lighting:equipment.strategy')}</Title>
          <SimpleGrid cols={2}>
            <Field label={t('lighting:fields.mode')}>{lamp.mode === null ? '' : t(`lighting:mode.${lamp.mode}`)}</Field>
            <Field label={t('lighting:fields.strategyId')}>
              {lamp.strategyId === null ? '' : `${lamp.strategyName ?? ''} (#${lamp.strategyId})`}
            </Field>
            <Field label={t('lighting:fields.modeData')}>{show(lamp.modeData)}</Field>
            <Field label={t('lighting:fields.jobList')}>
              <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {show(lamp.jobList)}
              </Text>
            </Field>
          </SimpleGrid>
        </Stack>
      )}
    </Drawer>
  );
}
