import { Drawer, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LampRow } from '@sc/contracts';
import { formatTime } from '@/utils/format';
import { useLampDetail } from './equipment-api';
import { FaultList, LampStatusBadge, NetworkBadge } from './lamp-badges';
import { useRegionLabel } from '@/features/region/area-tree';
import { DetailField } from '@/components/detail-field';

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
            <DetailField label={t('lighting:fields.lampName')}>{lamp.lampName}</DetailField>
            <DetailField label={t('lighting:fields.clientId')} testId="detail-clientId">
              {lamp.clientId}
            </DetailField>
            <DetailField label={t('lighting:fields.addr')}>{lamp.addr}</DetailField>
            <DetailField label={t('lighting:fields.mac')}>{lamp.mac}</DetailField>
            <DetailField label={t('lighting:fields.gatewayId')}>{lamp.gatewayId}</DetailField>
            <DetailField label={t('lighting:fields.lampControlId')}>{lamp.lampControlId}</DetailField>
            <DetailField label={t('lighting:fields.loop')}>{lamp.loopName}</DetailField>
            <DetailField label={t('lighting:fields.group')}>{lamp.groupName}</DetailField>
            <DetailField label={t('lighting:fields.region')}>{regionLabel(lamp)}</DetailField>
            <DetailField label={t('lighting:fields.position')}>
              {lamp.latitude === null || lamp.longitude === null ? '' : `${lamp.latitude.toFixed(5)}, ${lamp.longitude.toFixed(5)}`}
            </DetailField>
          </SimpleGrid>
          <Title order={5}>{t('lighting:equipment.state')}</Title>
          <SimpleGrid cols={2}>
            <DetailField label={t('lighting:fields.status')}>
              <LampStatusBadge status={lamp.status} />
            </DetailField>
            <DetailField label={t('lighting:fields.networkStatus')}>
              <NetworkBadge networkStatus={lamp.networkStatus} />
            </DetailField>
            <DetailField label={t('lighting:fields.switchState')}>
              {t(lamp.switchState === 1 ? 'lighting:switch.on' : 'lighting:switch.off')}
            </DetailField>
            <DetailField label={t('lighting:fields.bri')} testId="detail-bri">{`${lamp.bri} %`}</DetailField>
            <DetailField label={t('lighting:fields.level')}>{lamp.level === null ? '' : `${lamp.level} %`}</DetailField>
            <DetailField label={t('lighting:fields.color')}>{lamp.color}</DetailField>
            <DetailField label={t('lighting:fields.faults')}>
              <FaultList faults={lamp.faults} />
            </DetailField>
            <DetailField label={t('lighting:fields.reportedAt')}>
              {lamp.reportedAt ? formatTime(lamp.reportedAt) : t('lighting:list.never')}
            </DetailField>
          </SimpleGrid>
          <Title order={5}>{t('lighting:equipment.readings')}</Title>
          <SimpleGrid cols={2}>
            <DetailField label={t('lighting:fields.voltage')}>{reading ? `${reading.voltage.toFixed(1)} V` : ''}</DetailField>
            <DetailField label={t('lighting:fields.current')}>{reading ? `${reading.current.toFixed(3)} A` : ''}</DetailField>
            <DetailField label={t('lighting:fields.power')}>{reading ? `${reading.power.toFixed(1)} W` : ''}</DetailField>
            <DetailField label={t('lighting:fields.powerFactor')}>{reading ? reading.powerFactor.toFixed(2) : ''}</DetailField>
            <DetailField label={t('lighting:fields.signal')}>{reading ? `${reading.signal} dBm` : ''}</DetailField>
            <DetailField label={t('lighting:fields.totalIllumination')}>
              {lamp.totalIlluminationHours === null ? '' : t('lighting:equipment.hours', { count: lamp.totalIlluminationHours })}
            </DetailField>
            <DetailField label={t('lighting:fields.hardwareVersion')}>{lamp.hardwareVersion}</DetailField>
            <DetailField label={t('lighting:fields.softwareVersion')}>{lamp.softwareVersion}</DetailField>
          </SimpleGrid>
          <Title order={5}>{t('lighting:equipment.strategy')}</Title>
          <SimpleGrid cols={2}>
            <DetailField label={t('lighting:fields.mode')}>{lamp.mode === null ? '' : t(`lighting:mode.${lamp.mode}`)}</DetailField>
            <DetailField label={t('lighting:fields.strategyId')}>
              {lamp.strategyId === null ? '' : `${lamp.strategyName ?? ''} (#${lamp.strategyId})`}
            </DetailField>
            <DetailField label={t('lighting:fields.modeData')}>{show(lamp.modeData)}</DetailField>
            <DetailField label={t('lighting:fields.jobList')}>
              <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {show(lamp.jobList)}
              </Text>
            </DetailField>
          </SimpleGrid>
        </Stack>
      )}
    </Drawer>
  );
}
