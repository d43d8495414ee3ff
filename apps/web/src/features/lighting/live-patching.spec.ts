import { QueryClient } from '@tanstack/react-query';
import { DeviceFamily, DispatchStatus, LampStatus, OnlineState, type LampRow, type PageResult } from '@sc/contracts';
import { patchLiveRows } from '@/realtime/live-rows';
import { DISPATCH_RELOAD_MS, dispatchKeys, reloadOpenDispatch } from '@/features/dispatch/api';
import { lightingKeys } from './api';
import { equipmentKeys } from './equipment-api';
import { validateEquipmentSearch, validateLampControlSearch, validateLampSearch } from './search';

const lamp = (id: number, overrides: Partial<LampRow> = {}): LampRow => ({
  id,
  lampName: `Lamp ${id}`,
  clientId: `LAMP-${id}`,
  regionId: null,
  regionName: null,
  gatewayId: '',
  lampControlId: '',
  addr: '',
  mac: '',
  bri: 0,
  switchState: 0,
  status: LampStatus.Normal,
  networkStatus: OnlineState.Online,
  telemetry: null,
  faults: [],
  hardwareVersion: '',
  softwareVersion: '',
  totalIlluminationHours: null,
  reportedAt: null,
  loopId: null,
  loopName: null,
  level: null,
  color: '',
  groupId: null,
  groupName: null,
  latitude: null,
  longitude: null,
  strategyId: null,
  strategyName: null,
  mode: null,
  modeData: null,
  jobList: null,
  ...overrides,
});

describe('live lighting cache', () => {
  it('patches the changed fields of a lamp in every cached page that shows it, and leaves other pages alone', () => {
    const client = new QueryClient();
    const first = lightingKeys.lampPage({ pageNum: 1, pageSize: 20 });
    const filtered = lightingKeys.lampPage({ pageNum: 1, pageSize: 20, lampName: 'Lamp 2' });
    const other = lightingKeys.lampPage({ pageNum: 2, pageSize: 20 });
    client.setQueryData<PageResult<LampRow>>(first, { list: [lamp(1), lamp(2)], total: 30 });
    client.setQueryData<PageResult<LampRow>>(filtered, { list: [lamp(2)], total: 1 });
    const untouched = { list: [lamp(21)], total: 30 };
    client.setQueryData<PageResult<LampRow>>(other, untouched);

    patchLiveRows(client, lightingKeys.lamps, {
      family: DeviceFamily.Lamp,
      changes: [{ recordId: 2, deviceCode: 'LAMP-2', changed: { status: LampStatus.Offline, networkStatus: OnlineState.Offline } }],
      at: new Date().toISOString(),
    });

    expect(client.getQueryData<PageResult<LampRow>>(first)!.list.map((r) => [r.id, r.status, r.networkStatus])).toEqual([
      [1, LampStatus.Normal, OnlineState.Online],
      [2, LampStatus.Offline, OnlineState.Offline],
    ]);
    expect(client.getQueryData<PageResult<LampRow>>(filtered)!.list[0].status).toBe(LampStatus.Offline);
    expect(client.getQueryData(other)).toBe(untouched);
  });

  it('reads an open dispatch again for its progress events: the first at once, a burst once more, nothing for a closed one', () => {
    jest.useFakeTimers();
    try {
      const client = new QueryClient();
      const reads: string[] = [];
      jest.spyOn(client, 'invalidateQueries').mockImplementation((filters) => {
        reads.push(String(filters?.queryKey?.[1]));
        return Promise.resolve();
      });
      const counts = (delivered: number, sent: number) => ({ queued: 0, sent, delivered, failed: 0, expired: 0 });
      const progress = (dispatchId: string, delivered: number) => ({
        dispatchId,
        status: delivered === 2 ? DispatchStatus.AllSuccessful : DispatchStatus.ToBeSent,
        counts: counts(delivered, 2 - delivered),
      });
      client.setQueryData(dispatchKeys.page('d1', { pageNum: 1 }), { id: 'd1', status: DispatchStatus.ToBeSent, counts: counts(0, 2) });
      reloadOpenDispatch(client, progress('d1', 1));
      expect(reads).toEqual(['d1']);
      // A burst within the window: one more read at its end, none in between.
      for (let i = 0; i < 5; i++) reloadOpenDispatch(client, progress('d1', 1));
      expect(reads).toEqual(['d1']);
      jest.advanceTimersByTime(DISPATCH_RELOAD_MS);
      expect(reads).toEqual(['d1', 'd1']);
      jest.advanceTimersByTime(DISPATCH_RELOAD_MS * 2);
      expect(reads).toEqual(['d1', 'd1']);
      // Quiet again: the next event is read at once.
      reloadOpenDispatch(client, progress('d1', 2));
      expect(reads).toEqual(['d1', 'd1', 'd1']);
      jest.advanceTimersByTime(DISPATCH_RELOAD_MS * 2);
      // A late event reporting what the panel already shows reads nothing.
      client.setQueryData(dispatchKeys.page('d1', { pageNum: 1 }), { id: 'd1', status: DispatchStatus.AllSuccessful, counts: counts(2, 0) });
      reloadOpenDispatch(client, progress('d1', 2));
      expect(reads).toEqual(['d1', 'd1', 'd1']);
      // Nobody has d2 open.
      reloadOpenDispatch(client, progress('d2', 1));
      expect(reads).toEqual(['d1', 'd1', 'd1']);
      jest.advanceTimersByTime(DISPATCH_RELOAD_MS * 2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reads lamp filters from the address and drops what is malformed', () => {
    expect(validateLampSearch({ lampName: ' Road ', status: '-5', networkStatus: '0', regionId: '3', pageNum: '2' })).toEqual({
      lampName: 'Road',
      status: LampStatus.Offline,
      networkStatus: OnlineState.Offline,
      regionId: 3,
      pageNum: 2,
    });
    expect(validateLampSearch({ status: '-9', networkStatus: '5', regionId: 'x' })).toEqual({});
    expect(validateLampControlSearch({ dispatch: 'not-a-uuid' })).toEqual({});
    expect(validateLampControlSearch({ dispatch: '0b6f7a0e-5f0c-4c59-9d0e-4bb3c1a2f001' })).toEqual({
      dispatch: '0b6f7a0e-5f0c-4c59-9d0e-4bb3c1a2f001',
    });
  });

  it('patches an open lamp detail and the gateway pages from live events', () => {
    const client = new QueryClient();
    client.setQueryData<LampRow>(lightingKeys.lampDetail(7), lamp(7));
    patchLiveRows(
      client,
      lightingKeys.lamps,
      { family: DeviceFamily.Lamp, changes: [{ recordId: 7, deviceCode: 'LAMP-7', changed: { status: LampStatus.Synchronizing } }], at: '' },
      { detailKey: lightingKeys.lampDetail },
    );
    expect(client.getQueryData<LampRow>(lightingKeys.lampDetail(7))!.status).toBe(LampStatus.Synchronizing);

    const key = [...equipmentKeys.gateways, 'page', { pageNum: 1, pageSize: 20 }];
    client.setQueryData(key, { list: [{ id: 3, gatewayId: 'GW-3', networkStatus: OnlineState.Online }], total: 1 });
    patchLiveRows(client, equipmentKeys.gateways, {
      family: DeviceFamily.LampGateway,
      changes: [{ recordId: 3, deviceCode: 'GW-3', changed: { networkStatus: OnlineState.Offline } }],
      at: '',
    });
    expect(client.getQueryData<PageResult<{ networkStatus: OnlineState }>>(key)!.list[0].networkStatus).toBe(OnlineState.Offline);
  });

  it('keeps the equipment tab and the gateway and group filters in the address', () => {
    expect(validateEquipmentSearch({ tab: 'groups', gatewayId: 'LGW-01', groupId: '4' })).toEqual({ tab: 'groups', gatewayId: 'LGW-01', groupId: 4 });
    expect(validateEquipmentSearch({ tab: 'elsewhere' })).toEqual({});
  });
});
