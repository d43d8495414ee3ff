import { Suspense, lazy, useState } from 'react';
import { ActionIcon, Anchor, Button, Drawer, Group, MultiSelect, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUnlink, IconVideo } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { DeviceType, type MountedDevice, type PoleRow } from '@sc/contracts';
import { useSession } from '@/auth/session-store';
import { notifySuccess } from '@/components/notify';
import { canOpen } from '@/navigation/permitted-routes';
import { ROUTE_TABLE } from '@/navigation/route-table';
import { useMount, useMountable, usePoleDetail, useUnmount } from './api';

/** Where a mounted device is listed, by its type: its module's page, searched for it (only types whose page is built). */
const DEVICE_PAGES: Partial<
  Record<
    DeviceType,
    {
      to: '/smartLamp/equipmentManage' | '/ledManage/ledEquipmentManage' | '/wifiManage/acManage' | '/wifiManage/apManage' | '/realVideo/equipment';
      search: (d: MountedDevice) => Record<string, string>;
    }
  >
> = {
  [DeviceType.SingleLamp]: { to: '/smartLamp/equipmentManage', search: (d) => ({ tab: 'lamps', lampName: d.name }) },
  [DeviceType.LedScreen]: { to: '/ledManage/ledEquipmentManage', search: (d) => ({ name: d.code }) },
  [DeviceType.AccessController]: { to: '/wifiManage/acManage', search: (d) => ({ name: d.code }) },
  [DeviceType.AccessPoint]: { to: '/wifiManage/apManage', search: (d) => ({ name: d.code }) },
  [DeviceType.VideoEquipment]: { to: '/realVideo/equipment', search: (d) => ({ name: d.code }) },
};

// A camera's live view opens over the drawer; the player loads with it.
const LiveModal = lazy(() => import('@/features/video/live-modal').then((m) => ({ default: m.LiveModal })));

/** A camera's live view button, for those who may watch video (the video page's roles). */
function LiveButton({ device, onOpen }: { device: MountedDevice; onOpen: (device: MountedDevice) => void }) {
  const { t } = useTranslation();
  const roles = useSession((s) => s.roles);
  if (device.type !== DeviceType.VideoEquipment || !canOpen(ROUTE_TABLE, '/realVideo/video', roles)) return null;
  return (
    <Tooltip label={t('poles:detail.live')}>
      <ActionIcon variant="subtle" onClick={() => onOpen(device)} aria-label={t('poles:detail.live')} data-testid="pole-device-live">
        <IconVideo size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/** The page of a device's own module, where one exists yet and the user may open it; other devices show as plain text. */
function DeviceName({ device }: { device: MountedDevice }) {
  const { t } = useTranslation();
  const roles = useSession((s) => s.roles);
  const navigate = useNavigate();
  const page = DEVICE_PAGES[device.type];
  if (page && canOpen(ROUTE_TABLE, page.to, roles)) {
    const search = page.search(device);
    return (
      <Tooltip label={t('poles:detail.openPage')}>
        <Anchor
          href={`${page.to}?${new URLSearchParams(search).toString()}`}
          onClick={(event) => {
            event.preventDefault();
            void navigate({ to: page.to, search });
          }}
          data-testid="pole-device-link"
        >
          {device.name}
        </Anchor>
      </Tooltip>
    );
  }
  return <Text size="sm">{device.name}</Text>;
}

/** The devices mounted on a pole; administrators mount and unmount them here. */
export function PoleDevicesDrawer({ pole, canEdit, onClose }: { pole: PoleRow; canEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = usePoleDetail(pole.id);
  const mount = useMount();
  const unmount = useUnmount();
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword, 300);
  const candidates = useMountable({ keyword: debounced.trim() || undefined }, canEdit);
  const [picked, setPicked] = useState<string[]>([]);
  const [watching, setWatching] = useState<MountedDevice | null>(null);
  const devices = detail.data?.devices ?? [];

  const doMount = async () => {
    if (picked.length === 0) return;
    try {
      const { mounted } = await mount.mutateAsync({ poleId: pole.id, deviceIds: picked.map(Number) });
      notifySuccess(t('poles:detail.mounted', { count: mounted }));
      setPicked([]);
    } catch {
      // The refusal is already on screen.
    }
  };
  const doUnmount = async (device: MountedDevice) => {
    try {
      await unmount.mutateAsync({ poleId: pole.id, deviceIds: [device.id] });
      notifySuccess(t('poles:detail.unmounted', { name: device.name }));
    } catch {
      // The refusal is already on screen.
    }
  };

  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('poles:detail.title', { name: pole.name })}>
      <Stack data-testid="pole-devices-drawer">
        {canEdit && (
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <MultiSelect
              label={t('poles:detail.mountLabel')}
              placeholder={t('poles:detail.mountPlaceholder')}
              searchable
              searchValue={keyword}
              onSearchChange={setKeyword}
              filter={({ options }) => options}
              nothingFoundMessage={t('poles:detail.noCandidates')}
              data={(candidates.data ?? []).map((d) => ({
                value: String(d.id),
                label: `${d.name} (${d.code}) · ${t(`poles:deviceType.${d.type}`)}`,
              }))}
              value={picked}
              onChange={setPicked}
              style={{ flex: 1 }}
              data-testid="pole-mount-select"
            />
            <Button onClick={() => void doMount()} loading={mount.isPending} disabled={picked.length === 0} data-testid="pole-mount">
              {t('poles:detail.mount')}
            </Button>
          </Group>
        )}
        <Table striped data-testid="pole-device-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('poles:fields.type')}</Table.Th>
              <Table.Th>{t('poles:fields.name')}</Table.Th>
              <Table.Th>{t('poles:fields.code')}</Table.Th>
              {canEdit && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {devices.length === 0 && !detail.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed" ta="center" py="md">
                    {t('poles:detail.none')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {devices.map((device) => (
              <Table.Tr key={device.id} data-testid={`pole-device-${device.code}`}>
                <Table.Td>{t(`poles:deviceType.${device.type}`)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <DeviceName device={device} />
                    <LiveButton device={device} onOpen={setWatching} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {device.code}
                  </Text>
                </Table.Td>
                {canEdit && (
                  <Table.Td ta="right">
                    <Tooltip label={t('poles:detail.unmount')}>
                      <ActionIcon
                        color="red"
                        variant="subtle"
                        onClick={() => void doUnmount(device)}
                        aria-label={t('poles:detail.unmount')}
                        data-testid="pole-unmount"
                      >
                        <IconUnlink size={18} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
      <Suspense fallback={null}>{watching && <LiveModal camera={watching} onClose={() => setWatching(null)} />}</Suspense>
    </Drawer>
  );
}
